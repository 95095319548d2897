package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.OpenApiRefs;
import io.profilestore.testing.Routes;
import io.profilestore.testing.TestStack;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The OpenAPI document is served to anyone, and describes exactly the routes the service has. */
@ExtendWith(DropwizardExtensionsSupport.class)
class OpenApiIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    static final Set<String> HTTP_METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    JsonNode document() {
        var reply = new Api(APP.getLocalPort()).send("GET", "/openapi.json", null, null, Map.of());
        assertThat(reply.status()).as("the document without a token").isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        return reply.json();
    }

    @Test
    void theDocumentDescribesEveryRouteAndNoOther() {
        var document = document();
        assertThat(document.path("openapi").asText()).isEqualTo("3.1.0");

        var described = new TreeMap<String, Set<String>>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(key -> {
            if (HTTP_METHODS.contains(key)) {
                described.computeIfAbsent(path.getKey(), p -> new TreeSet<>()).add(key.toUpperCase(Locale.ROOT));
            }
        }));
        var served = Routes.of(APP.getEnvironment().jersey().getResourceConfig());

        assertThat(served).as("routes of the service").containsKeys("/v1/profiles/{pid}", "/v1/search", "/openapi.json");
        assertThat(described).isEqualTo(served);
    }

    @Test
    void everyOperationHasAnIdRolesAndProblemAnswers() {
        var document = document();
        var ids = new TreeSet<String>();
        document.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
            if (!HTTP_METHODS.contains(operation.getKey())) {
                return;
            }
            String name = operation.getKey() + " " + path.getKey();
            var op = operation.getValue();
            assertThat(ids.add(op.path("operationId").asText())).as("a unique operationId for %s", name).isTrue();
            var responses = op.path("responses");
            assertThat(responses.size()).as("answers of %s", name).isPositive();
            responses.fields().forEachRemaining(answer -> {
                if (answer.getKey().startsWith("4") || answer.getKey().startsWith("5")) {
                    var content = OpenApiRefs.resolve(document, answer.getValue());
                    assertThat(content.path("content").has("application/problem+json"))
                            .as("%s answers %s as a problem", name, answer.getKey()).isTrue();
                }
            });
            if (!path.getKey().equals("/openapi.json") && !path.getKey().equals("/asyncapi.json")) {
                assertThat(op.path("x-roles").size()).as("roles of %s", name).isPositive();
                assertThat(responses.has("401")).as("%s answers 401", name).isTrue();
            }
        }));
        assertThat(ids).hasSizeGreaterThan(10);
    }
}
