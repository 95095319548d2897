package io.profilestore.search;

import java.time.LocalDate;
import java.util.List;

/**
 * A search as the index understands it: each name field as its readings (see {@link NameNormalizer}), numbers as
 * digits, the birth date as a date, and what was typed into the one search box word by word. Absent criteria are null.
 */
public record SearchCriteria(
        List<NameNormalizer.Reading> surname,
        List<NameNormalizer.Reading> firstName,
        List<NameNormalizer.Reading> patronymic,
        LocalDate birthDate,
        String phone,
        String document,
        TypedQuery typed) {
}
