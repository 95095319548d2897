package io.profilestore.search;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.List;
import java.util.Optional;

/**
 * Numbers and dates as search compares them: phones and document numbers reduced to their digits, so that
 * {@code +7 (912) 345-67-89}, {@code 8 912 345 67 89} and {@code 79123456789} are one; birth dates as dates.
 */
public final class Numbers {

    /** Strict: 31.02.1980 is no date, not 29.02.1980. */
    private static final List<DateTimeFormatter> DATES = List.of(
            DateTimeFormatter.ISO_LOCAL_DATE,
            DateTimeFormatter.ofPattern("d.M.uuuu").withResolverStyle(ResolverStyle.STRICT),
            DateTimeFormatter.ofPattern("d/M/uuuu").withResolverStyle(ResolverStyle.STRICT));
    /** Birth dates searched for lie within these years (the index's dates are four-digit years). */
    private static final int FIRST_YEAR = 1850;
    private static final int LAST_YEAR = 2150;

    private Numbers() {
    }

    /**
     * The digits of a phone number, in international form for Russian numbers: a leading 8 of an 11-digit
     * number is the trunk prefix of +7, and a 10-digit number starting with 9 is a mobile number without it.
     */
    public static Optional<String> phone(String text) {
        String digits = digits(text);
        if (digits.length() < 5 || digits.length() > 15) {
            return Optional.empty();
        }
        if (digits.length() == 11 && digits.charAt(0) == '8') {
            return Optional.of("7" + digits.substring(1));
        }
        if (digits.length() == 10 && digits.charAt(0) == '9') {
            return Optional.of("7" + digits);
        }
        return Optional.of(digits);
    }

    /** The digits of a document number (passport 4510 123456 is 4510123456). */
    public static Optional<String> document(String text) {
        String digits = digits(text);
        return digits.isEmpty() || digits.length() > 30 ? Optional.empty() : Optional.of(digits);
    }

    /** A date written as 1985-03-07, 07.03.1985 (7.3.1985) or 07/03/1985, of a year from 1850 to 2150. */
    public static Optional<LocalDate> date(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (var format : DATES) {
            try {
                var date = LocalDate.parse(text.strip(), format);
                return date.getYear() < FIRST_YEAR || date.getYear() > LAST_YEAR ? Optional.empty() : Optional.of(date);
            } catch (DateTimeParseException notThisOne) {
                // try the next format
            }
        }
        return Optional.empty();
    }

    private static String digits(String text) {
        if (text == null) {
            return "";
        }
        var digits = new StringBuilder();
        text.codePoints().filter(Character::isDigit).forEach(c -> digits.append(Character.forDigit(Character.digit(c, 10), 10)));
        return digits.toString();
    }
}
