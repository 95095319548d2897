package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import io.profilestore.testing.OpenApiRefs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Runs after every other test (its own Failsafe execution, in post-integration-test): every answer the API gave the
 * tests (kept by {@code ApiAnswers}) is described by the OpenAPI document: its path and method, its status, its
 * content type, and its body validates against the schema the document gives it.
 */
class OpenApiAnswersCheck {

    static final Path PROJECT = Path.of(System.getProperty("profileStore.projectDir", "."));
    static final String IRI = "https://profile-store.dev/openapi.json";
    static final ObjectMapper JSON = new ObjectMapper();

    record Route(Pattern pattern, String template, JsonNode item) {
    }

    @Test
    void everyAnswerOfTheRunFitsTheDocument() throws IOException {
        String text = Files.readString(PROJECT.resolve("src/main/resources/openapi/openapi.json"), StandardCharsets.UTF_8);
        JsonNode document = JSON.readTree(text);
        var registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi31(), builder -> builder.schemas(Map.of(IRI, text)));
        var routes = new ArrayList<Route>();
        document.path("paths").fields().forEachRemaining(path -> routes.add(new Route(
                Pattern.compile(Pattern.quote(path.getKey()).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q")), path.getKey(), path.getValue())));

        var answers = new ArrayList<JsonNode>();
        try (Stream<Path> files = Files.list(PROJECT.resolve("target"))) {
            for (var file : files.filter(f -> f.getFileName().toString().matches("api-answers-\\d+\\.jsonl")).toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        answers.add(JSON.readTree(line));
                    }
                }
            }
        }
        assertThat(answers).as("answers the tests were given").hasSizeGreaterThan(500);

        var schemas = new HashMap<String, Schema>();
        var findings = new TreeMap<String, Integer>();
        int validated = 0;
        for (var answer : answers) {
            String method = answer.path("method").asText();
            String path = answer.path("path").asText();
            int status = answer.path("status").asInt();
            var route = routes.stream().filter(r -> r.pattern().matcher(path).matches()).findFirst().orElse(null);
            if (route == null) {
                if (status != 404 && status != 400) {
                    findings.merge(method + " " + path + " " + status + ": a path the document does not have", 1, Integer::sum);
                }
                continue;
            }
            String name = method + " " + route.template() + " " + status;
            var operation = route.item().path(method.toLowerCase(Locale.ROOT));
            if (operation.isMissingNode()) {
                if (status != 405 && !method.equals("OPTIONS")) {
                    findings.merge(name + ": a method the document does not have", 1, Integer::sum);
                }
                continue;
            }
            var responses = operation.path("responses");
            String code = responses.has(String.valueOf(status)) ? String.valueOf(status)
                    : responses.has(status / 100 + "XX") ? status / 100 + "XX" : "default";
            var response = responses.path(code);
            // where the response is in the document, as a JSON pointer: its schema is found from there
            String pointer = response.has("$ref") ? response.path("$ref").asText().substring(1)
                    : "/paths/" + escape(route.template()) + "/" + method.toLowerCase(Locale.ROOT) + "/responses/" + code;
            response = OpenApiRefs.resolve(document, response);
            if (response.isMissingNode()) {
                findings.merge(name + ": a status the document does not give", 1, Integer::sum);
                continue;
            }
            String body = answer.path("body").asText("");
            if (body.isEmpty()) {
                continue;
            }
            String contentType = answer.path("contentType").asText("").split(";")[0].strip();
            var media = response.path("content").path(contentType);
            if (media.isMissingNode()) {
                findings.merge(name + ": content type " + contentType + " the document does not give", 1, Integer::sum);
                continue;
            }
            String schemaPointer = pointer + "/content/" + escape(contentType) + "/schema";
            var schema = schemas.computeIfAbsent(schemaPointer, key -> registry.getSchema(SchemaLocation.of(IRI + "#" + key)));
            JsonNode value;
            try {
                value = JSON.readTree(body);
            } catch (IOException notJson) {
                findings.merge(name + ": a body that is not JSON", 1, Integer::sum);
                continue;
            }
            validated++;
            for (var error : schema.validate(value)) {
                findings.merge(name + ": " + error.toString(), 1, Integer::sum);
            }
        }
        System.out.printf("openapi: %d answers, %d bodies validated, %d finding(s)%n", answers.size(), validated, findings.size());
        assertThat(validated).as("bodies validated").isGreaterThan(300);
        assertThat(findings).as("answers that do not fit the document (finding: count)").isEmpty();
    }

    /** A JSON pointer's token, percent-encoded where a URI fragment needs it. */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1").replace("{", "%7B").replace("}", "%7D");
    }
}
