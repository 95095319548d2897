package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code PUT /v1/profiles/{pid}}: the new document. */
public record ReplaceProfileRequest(JsonNode data) {
}
