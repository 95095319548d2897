package io.profilestore.profiles;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;

/**
 * Profile documents: JSON objects, stored as compact text, no larger than the limit. Merge patches (RFC 7396)
 * are applied by Jakarta JSON Processing, which implements the RFC and keeps numbers exact.
 */
public class Documents {

    private final ObjectMapper json;
    private final int maxBytes;

    public Documents(ObjectMapper json, int maxBytes) {
        this.json = json;
        this.maxBytes = maxBytes;
    }

    /** The document as compact JSON text, after checking that it is an object within the size limit. */
    public String compact(JsonNode document) {
        if (document == null || document.isMissingNode() || document.isNull()) {
            throw new InvalidDocumentException("data is required: a JSON object");
        }
        if (!document.isObject()) {
            throw new InvalidDocumentException("data must be a JSON object, not " + describe(document));
        }
        try {
            return withinLimit(json.writeValueAsString(document));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed document did not serialize", e);
        }
    }

    /** Applies an RFC 7396 merge patch to a stored document; the result must still be an object within the limit. */
    public String mergePatch(String stored, JsonNode patch) {
        if (patch == null || patch.isMissingNode()) {
            throw new InvalidDocumentException("the merge patch is empty");
        }
        if (!patch.isObject()) {
            // RFC 7396 would replace the whole document with it, which a profile cannot be
            throw new InvalidDocumentException("a merge patch of a profile must be a JSON object, not " + describe(patch));
        }
        JsonValue target = Json.createReader(new StringReader(stored)).readValue();
        JsonValue merged = Json.createMergePatch(Json.createReader(new StringReader(patch.toString())).readValue())
                .apply(target);
        if (merged.getValueType() != JsonValue.ValueType.OBJECT) {
            throw new InvalidDocumentException("the patched document is not a JSON object");
        }
        return withinLimit(merged.toString());
    }

    private String withinLimit(String compact) {
        int bytes = compact.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > maxBytes) {
            throw new DocumentTooLargeException(bytes, maxBytes);
        }
        return compact;
    }

    private static String describe(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }
}
