package io.profilestore.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** Where the next page starts: the sort values of the last hit (sealed by the caller before it leaves). */
record PageCursor(List<FieldValue> after) {

    private static final ObjectMapper JSON = new ObjectMapper();

    String encode() {
        var node = JSON.createObjectNode();
        var values = node.putArray("after");
        for (var value : after) {
            if (value.isDouble()) {
                values.add(value.doubleValue());
            } else if (value.isLong()) {
                values.add(value.longValue());
            } else if (value.isString()) {
                values.add(value.stringValue());
            } else {
                values.addNull();
            }
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    static PageCursor decode(String text) {
        try {
            var node = JSON.readTree(Base64.getUrlDecoder().decode(text));
            var after = new ArrayList<FieldValue>();
            for (var value : node.path("after")) {
                after.add(value.isNull() ? FieldValue.NULL
                        : value.isFloatingPointNumber() ? FieldValue.of(value.doubleValue())
                        : value.isIntegralNumber() ? FieldValue.of(value.longValue())
                        : FieldValue.of(value.asText()));
            }
            if (after.isEmpty()) {
                throw new IllegalArgumentException("incomplete cursor");
            }
            return new PageCursor(after);
        } catch (IOException | IllegalArgumentException e) {
            throw new InvalidSearchException("invalid-query", "cursor is not a cursor this service gave out");
        }
    }
}
