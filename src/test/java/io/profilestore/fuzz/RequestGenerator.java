package io.profilestore.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.testing.OpenApiRefs;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Requests made from the OpenAPI document: for an operation it describes, values that fit its schemas, then, most
 * of the time, one or more mutations (wrong types, huge and empty values, odd Unicode, unknown and duplicate
 * fields, broken JSON, bad headers); and any method on any path. Seeded: a run can be repeated.
 */
final class RequestGenerator {

    /** One request: what to send, and the pid it addresses (a sentinel profile's, or null). */
    record Request(String method, String path, Map<String, String> headers, String body, UUID pid, String operation) {
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> METHODS = List.of("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE",
            "TRACE", "PROPFIND", "FOO");
    private static final List<String> ODD = List.of("", " ", "\u0000", "\uFEFF", "\u202Eevil", "\uD835\uDD4F", "Ａｂｃ",
            "e\u0301\u0301\u0301", "null", "-1", "0", "9".repeat(40), "1e309", "true", "[]", "{}", "../../etc/passwd",
            "%00", "'; DROP TABLE profile; --", "<script>alert(1)</script>", "Иванов", "ivanov*", "\\", "\"", "ſ",
            "\t\n", "x".repeat(5_000));

    private final JsonNode document;
    private final Random random;
    private final List<UUID> pids;
    private final List<Map.Entry<String, JsonNode>> operations = new ArrayList<>();
    private final List<String> paths = new ArrayList<>();

    RequestGenerator(JsonNode document, long seed, List<UUID> pids) {
        this.document = document;
        this.random = new Random(seed);
        this.pids = pids;
        document.path("paths").fields().forEachRemaining(path -> {
            paths.add(path.getKey());
            path.getValue().fields().forEachRemaining(op -> {
                if (List.of("get", "put", "post", "patch", "delete").contains(op.getKey())) {
                    operations.add(Map.entry(op.getKey().toUpperCase() + " " + path.getKey(), op.getValue()));
                }
            });
        });
    }

    int operationCount() {
        return operations.size();
    }

    Request next() {
        if (random.nextInt(10) == 0) {
            return anyMethodAnywhere();
        }
        var operation = operations.get(random.nextInt(operations.size()));
        String method = operation.getKey().substring(0, operation.getKey().indexOf(' '));
        String template = operation.getKey().substring(method.length() + 1);
        var spec = operation.getValue();
        UUID pid = template.contains("{pid}") ? pids.get(random.nextInt(pids.size())) : null;
        String path = template.replace("{uid}", maybe(UUID.randomUUID().toString()))
                .replace("{version}", maybe(Integer.toString(1 + random.nextInt(3))));
        if (pid != null) {
            path = path.replace("{pid}", maybe(pid.toString()));
        }
        var headers = new LinkedHashMap<String, String>();
        var query = new ArrayList<String>();
        for (var parameter : spec.path("parameters")) {
            var p = resolve(parameter);
            String in = p.path("in").asText();
            String name = p.path("name").asText();
            if (in.equals("path")) {
                continue;
            }
            if (!p.path("required").asBoolean() && random.nextBoolean()) {
                continue;
            }
            String value = random.nextInt(3) == 0 ? odd() : scalar(resolve(p.path("schema")));
            if (in.equals("query")) {
                query.add(encode(name) + "=" + encode(value));
                if (random.nextInt(20) == 0) {
                    query.add(encode(name) + "=" + encode(odd()));
                }
            } else if (in.equals("header")) {
                headers.put(name, headerSafe(value));
            }
        }
        if (random.nextInt(15) == 0) {
            query.add(encode(odd()) + "=" + encode(odd()));
        }
        if (!query.isEmpty()) {
            path += "?" + String.join("&", query);
        }
        String body = null;
        var content = spec.path("requestBody").path("content");
        if (content.size() > 0) {
            String mediaType = content.fieldNames().next();
            headers.put("Content-Type", random.nextInt(12) == 0 ? oddContentType() : mediaType);
            body = body(content.path(mediaType).path("schema"));
        }
        if (random.nextInt(12) == 0) {
            headers.put("If-Match", headerSafe(List.of("*", "W/\"1\"", "\"1\"", "\"abc\"", "\"-1\"", "\"1\", \"2\"",
                    "\"" + "9".repeat(30) + "\"", "").get(random.nextInt(8))));
        }
        return new Request(method, path, headers, body, pid, operation.getKey());
    }

    private Request anyMethodAnywhere() {
        String template = paths.get(random.nextInt(paths.size()));
        UUID pid = template.contains("{pid}") ? pids.get(random.nextInt(pids.size())) : null;
        String path = template.replace("{pid}", pid == null ? "" : pid.toString()).replace("{uid}", UUID.randomUUID().toString())
                .replace("{version}", "1");
        String method = METHODS.get(random.nextInt(METHODS.size()));
        var headers = new LinkedHashMap<String, String>();
        String body = null;
        if (random.nextBoolean() && !method.equals("GET") && !method.equals("HEAD") && !method.equals("TRACE")) {
            headers.put("Content-Type", "application/json");
            body = "{\"data\": {\"surname\": \"" + odd().replace("\\", "").replace("\"", "") + "\"}}";
        }
        return new Request(method, path, headers, body, pid, method + " " + template);
    }

    private String maybe(String id) {
        return random.nextInt(8) == 0 ? encode(odd()) : id;
    }

    private String body(JsonNode schema) {
        JsonNode value = value(resolve(schema), 0);
        int mutation = random.nextInt(14);
        String text = value.toString();
        return switch (mutation) {
            case 0 -> text.isEmpty() ? "" : text.substring(0, random.nextInt(text.length()));      // broken JSON
            case 1 -> "";
            case 2 -> value instanceof ObjectNode object ? withUnknownField(object) : text;
            case 3 -> value instanceof ObjectNode && text.length() > 2 ? text.substring(0, text.length() - 1)
                    + "," + text.substring(1) : text;                                                  // duplicate keys
            case 4 -> "[".repeat(300) + "]".repeat(300);
            case 5 -> "{\"data\":" + "{\"a\":".repeat(100) + "1" + "}".repeat(100) + "}";
            case 6 -> wrongTypes(value).toString();
            case 7 -> "\"" + "x".repeat(200_000) + "\"";
            case 8 -> "{\"data\": {\"surname\": \"" + "Я".repeat(50_000) + "\"}}";
            case 9 -> "null";
            default -> text;
        };
    }

    private String withUnknownField(ObjectNode object) {
        var copy = object.deepCopy();
        copy.put("unknown" + random.nextInt(100), odd());
        return copy.toString();
    }

    /** The same shape with some leaves of the wrong type. */
    private JsonNode wrongTypes(JsonNode value) {
        if (value instanceof ObjectNode object) {
            var copy = NODES.objectNode();
            object.fields().forEachRemaining(f -> copy.set(f.getKey(), random.nextInt(3) == 0 ? wrongLeaf(f.getValue()) : wrongTypes(f.getValue())));
            return copy;
        }
        if (value instanceof ArrayNode array) {
            var copy = NODES.arrayNode();
            array.forEach(item -> copy.add(wrongTypes(item)));
            return copy;
        }
        return random.nextBoolean() ? wrongLeaf(value) : value;
    }

    private JsonNode wrongLeaf(JsonNode value) {
        return switch (random.nextInt(6)) {
            case 0 -> NODES.numberNode(random.nextLong());
            case 1 -> NODES.textNode(odd());
            case 2 -> NODES.arrayNode().add(value);
            case 3 -> NODES.objectNode().set("x", value);
            case 4 -> NODES.booleanNode(true);
            default -> NODES.nullNode();
        };
    }

    /** A value that fits the schema. */
    private JsonNode value(JsonNode schema, int depth) {
        schema = resolve(schema);
        if (schema.has("enum")) {
            return schema.path("enum").get(random.nextInt(schema.path("enum").size()));
        }
        if (schema.has("oneOf") || schema.has("anyOf")) {
            var options = schema.has("oneOf") ? schema.path("oneOf") : schema.path("anyOf");
            return value(options.get(random.nextInt(options.size())), depth + 1);
        }
        String type = type(schema);
        if (depth > 6) {
            return NODES.textNode("deep");
        }
        return switch (type) {
            case "object" -> object(schema, depth);
            case "array" -> {
                var array = NODES.arrayNode();
                int n = random.nextInt(3) + (schema.path("minItems").asInt(0));
                for (int i = 0; i < n; i++) {
                    array.add(value(schema.path("items"), depth + 1));
                }
                yield array;
            }
            case "integer" -> NODES.numberNode(schema.has("minimum") ? schema.path("minimum").asLong() + random.nextInt(3) : random.nextInt(100));
            case "number" -> NODES.numberNode(random.nextDouble());
            case "boolean" -> NODES.booleanNode(random.nextBoolean());
            case "null" -> NODES.nullNode();
            default -> NODES.textNode(scalar(schema));
        };
    }

    private JsonNode object(JsonNode schema, int depth) {
        var object = NODES.objectNode();
        var required = new ArrayList<String>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        schema.path("properties").fields().forEachRemaining(p -> {
            if (required.contains(p.getKey()) || random.nextBoolean()) {
                object.set(p.getKey(), value(p.getValue(), depth + 1));
            }
        });
        if (schema.path("properties").isEmpty()) {
            // a profile's free-form data: the fields that search reads
            object.put("surname", List.of("Иванов", "Щербакова", "Ivanov", "Цой", odd()).get(random.nextInt(5)));
            if (random.nextBoolean()) {
                object.putArray("phones").add("+7 912 " + (100 + random.nextInt(900)) + "-00-00");
            }
        }
        return object;
    }

    private String scalar(JsonNode schema) {
        schema = resolve(schema);
        if (schema.has("enum")) {
            return schema.path("enum").get(random.nextInt(schema.path("enum").size())).asText();
        }
        String format = schema.path("format").asText();
        return switch (format) {
            case "uuid" -> pids.get(random.nextInt(pids.size())).toString();
            case "date" -> "19" + (50 + random.nextInt(50)) + "-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(10);
            case "date-time" -> "2026-11-" + (10 + random.nextInt(19)) + "T00:00:00Z";
            default -> switch (type(schema)) {
                case "integer" -> Integer.toString(schema.has("minimum") ? schema.path("minimum").asInt() + random.nextInt(5) : random.nextInt(50));
                case "boolean" -> Boolean.toString(random.nextBoolean());
                default -> List.of("Иванов", "ivanov", "Bdfyjd", "Ёлкина", "+7 912 345-67-89", "45 06 123456", "Щ")
                        .get(random.nextInt(7));
            };
        };
    }

    private static String type(JsonNode schema) {
        var type = schema.path("type");
        if (type.isArray()) {
            for (var t : type) {
                if (!t.asText().equals("null")) {
                    return t.asText();
                }
            }
            return "null";
        }
        return type.isMissingNode() ? (schema.has("properties") ? "object" : "string") : type.asText();
    }

    private JsonNode resolve(JsonNode node) {
        return OpenApiRefs.resolve(document, node);
    }

    private String odd() {
        return ODD.get(random.nextInt(ODD.size()));
    }

    private String oddContentType() {
        return List.of("text/plain", "application/json; charset=ISO-8859-1", "application/xml", "multipart/form-data",
                "application/x-www-form-urlencoded", "*/*", "application/json;;;", "x".repeat(300)).get(random.nextInt(8));
    }

    /** Header values must be visible ASCII for the client to send them at all. */
    private static String headerSafe(String value) {
        var out = new StringBuilder();
        value.chars().filter(c -> c >= 0x20 && c < 0x7f).limit(1000).forEach(c -> out.append((char) c));
        return out.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    static JsonNode parse(String text) throws IOException {
        return JSON.readTree(text);
    }
}
