package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** {@code POST /v1/profiles:batchCreate}: up to 100 profiles, each under a new user (the bulk path of imports). */
public record BatchCreateRequest(List<New> profiles) {

    public record New(JsonNode data) {
    }
}
