package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /v1/profiles:batchUpdate}: new documents for several profiles, each with the version it replaces.
 * How many a batch may hold, whether a pid repeats and what {@code data} must be, the core decides.
 */
public record BatchUpdateRequest(@NotNull List<@NotNull @Valid Update> updates) {

    public record Update(@NotNull UUID pid, @NotNull Long version, JsonNode data) {
    }
}
