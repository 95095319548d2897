package io.profilestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.UUID;

/** {@code POST /v1/profiles}: without {@code uid} the profile gets a new user; with it, joins that user. */
public record CreateProfileRequest(UUID uid, JsonNode data) {
}
