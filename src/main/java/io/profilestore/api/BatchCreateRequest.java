package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotNull;
import java.util.List;

/**
 * {@code POST /v1/profiles:batchCreate}: up to 100 profiles, each under a new user (the bulk path of imports).
 * How many a batch may hold, and what {@code data} must be, the core decides: the limit is configured.
 */
public record BatchCreateRequest(@NotNull List<@NotNull New> profiles) {

    public record New(JsonNode data) {
    }
}
