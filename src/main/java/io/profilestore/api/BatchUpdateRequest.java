package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.UUID;

/** {@code POST /v1/profiles:batchUpdate}: new documents for several profiles, each with the version it replaces. */
public record BatchUpdateRequest(List<Update> updates) {

    public record Update(UUID pid, Long version, JsonNode data) {
    }
}
