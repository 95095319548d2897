package io.profilestore.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Whether a document matches an Elasticsearch query, for the clauses SearchQuery builds (bool, dis_max,
 * constant_score, prefix, term) over keyword fields: what the index would answer, without an index. Scores are
 * not computed; an unknown clause fails the test rather than being guessed at.
 */
final class QueryMatcher {

    private QueryMatcher() {
    }

    /** @param document each field's values, as indexed (a field not given has none) */
    static boolean matches(JsonNode query, Map<String, List<String>> document) {
        var entry = query.fields().next();
        JsonNode body = entry.getValue();
        return switch (entry.getKey()) {
            case "bool" -> bool(body, document);
            case "dis_max" -> any(body.path("queries"), document) > 0;
            case "constant_score" -> matches(body.path("filter"), document);
            case "prefix" -> values(body, document).stream().anyMatch(v -> v.startsWith(value(body)));
            case "term" -> values(body, document).contains(value(body));
            default -> throw new IllegalArgumentException("no model of the clause " + entry.getKey());
        };
    }

    /**
     * Elasticsearch's rule: should clauses are optional beside must or filter, unless a minimum is set; alone, one
     * must match.
     */
    private static boolean bool(JsonNode bool, Map<String, List<String>> document) {
        for (String required : List.of("must", "filter")) {
            if (any(bool.path(required), document) < bool.path(required).size()) {
                return false;
            }
        }
        if (any(bool.path("must_not"), document) > 0) {
            return false;
        }
        boolean alone = !bool.has("must") && !bool.has("filter") && bool.has("should");
        int minimum = bool.has("minimum_should_match") ? bool.path("minimum_should_match").asInt() : alone ? 1 : 0;
        return any(bool.path("should"), document) >= minimum;
    }

    /** How many of the clauses (an array, or one clause) match. */
    private static int any(JsonNode clauses, Map<String, List<String>> document) {
        if (clauses.isMissingNode()) {
            return 0;
        }
        if (clauses.isObject()) {
            return matches(clauses, document) ? 1 : 0;
        }
        int count = 0;
        for (var clause : clauses) {
            count += matches(clause, document) ? 1 : 0;
        }
        return count;
    }

    private static List<String> values(JsonNode fieldAndValue, Map<String, List<String>> document) {
        return document.getOrDefault(fieldAndValue.fieldNames().next(), List.of());
    }

    private static String value(JsonNode fieldAndValue) {
        JsonNode value = fieldAndValue.elements().next();
        return value.isObject() ? value.path("value").asText() : value.asText();
    }
}
