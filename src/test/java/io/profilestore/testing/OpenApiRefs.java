package io.profilestore.testing;

import com.fasterxml.jackson.databind.JsonNode;

/** Local references ({@code #/components/...}) inside the OpenAPI document, followed as the tests read it. */
public final class OpenApiRefs {

    private OpenApiRefs() {
    }

    /** The node itself, or what its {@code $ref} points to (followed through at most ten references). */
    public static JsonNode resolve(JsonNode document, JsonNode node) {
        int hops = 0;
        while (node.has("$ref") && hops++ < 10) {
            JsonNode target = document;
            for (String part : node.path("$ref").asText().substring(2).split("/")) {
                target = target.path(part.replace("~1", "/").replace("~0", "~"));
            }
            node = target;
        }
        return node;
    }
}
