package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;

/**
 * {@code PUT /v1/profiles/{pid}}: the new document. With {@code If-None-Match: *} it creates the profile at that pid,
 * under {@code uid} when given (a uid nobody has is made); with If-Match a uid is refused (a move is a request of its
 * own).
 */
public record ReplaceProfileRequest(UUID uid, JsonNode data) {
}
