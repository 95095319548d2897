package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** {@code GET /v1/search}: the hits, the cursor of the next page, and how each parameter was understood. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SearchResponse(List<Item> items, String nextCursor, Map<String, Object> query) {

    /** @param matched for a search by {@code q}: how each name word found this hit */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Item(UUID pid, UUID uid, UUID masterUid, String surname, String firstName, String patronymic,
            LocalDate birthDate, long version, @JsonRawValue String data, List<Match> matched) {
    }

    /** A word of {@code q} and the reading of it that matched (as typed, transliterated, the other layout). */
    public record Match(String input, String reading) {
    }
}
