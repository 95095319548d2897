package io.profilestore.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.resources.AsyncApiResource;
import io.profilestore.resources.AuditResource;
import io.profilestore.resources.CallerResource;
import io.profilestore.resources.OpenApiResource;
import io.profilestore.resources.ProfileHistoryResource;
import io.profilestore.resources.ProfileResource;
import io.profilestore.resources.SearchResource;
import io.profilestore.resources.UserResource;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Which of the resources' methods are limited, and as what: reads, searches and writes. */
class RateLimitFeatureTest {

    static final List<Class<?>> RESOURCES = List.of(ProfileResource.class, UserResource.class, SearchResource.class,
            AuditResource.class, CallerResource.class, OpenApiResource.class, ProfileHistoryResource.class,
            AsyncApiResource.class);

    /** Every operation the limit applies to says in the OpenAPI document that it may answer 429. */
    @Test
    void everyLimitedOperationDescribesItsTooManyRequests() throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode document;
        try (var in = RateLimitFeatureTest.class.getResourceAsStream("/openapi/openapi.json")) {
            document = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
        }
        var limited = limitedOperations().entrySet().stream().filter(e -> !e.getValue().equals("-")).toList();
        assertThat(limited).as("limited operations").hasSizeGreaterThan(5);
        for (var operation : limited) {
            String[] verbAndPath = operation.getKey().split(" ", 2);
            var described = document.path("paths").path(verbAndPath[1]).path(verbAndPath[0].toLowerCase(java.util.Locale.ROOT));
            assertThat(described.isMissingNode()).as("%s in the document", operation.getKey()).isFalse();
            assertThat(described.path("responses").has("429")).as("%s answers 429", operation.getKey()).isTrue();
        }
    }

    static Map<String, String> limitedOperations() {
        var kinds = new TreeMap<String, String>();
        for (var type : RESOURCES) {
            for (var method : type.getMethods()) {
                String verb = verb(method);
                if (verb == null) {
                    continue;
                }
                var kind = RateLimitFeature.kindOf(info(type, method));
                kinds.put(verb + " " + path(type, method), kind == null ? "-" : kind.label());
            }
        }
        return kinds;
    }

    @Test
    void readsSearchesAndWritesAreLimitedEachAsItsKind() {
        var kinds = limitedOperations();
        assertThat(kinds).containsAllEntriesOf(Map.of(
                "GET /v1/profiles/{pid}", "read",
                "GET /v1/users/{uid}", "read",
                "GET /v1/users/{uid}/merges", "read",
                "GET /v1/audit", "read",
                "GET /v1/me", "read",
                "GET /v1/console/session", "read",
                "GET /v1/search", "search",
                "POST /v1/search", "search",
                "GET /openapi.json", "-"));
        assertThat(kinds).containsAllEntriesOf(Map.of("GET /asyncapi.json", "-", "GET /v1/profiles/{pid}/versions", "read",
                "GET /v1/profiles/{pid}/versions/{version}", "read"));
        // every change too: a change answers with the profile it leaves, so an unlimited one is a read by another name
        var writes = kinds.entrySet().stream().filter(e -> !e.getKey().startsWith("GET ")
                && !e.getKey().equals("POST /v1/search")).toList();
        assertThat(writes).as("the writes").hasSizeGreaterThan(8)
                .allSatisfy(e -> assertThat(e.getValue()).as(e.getKey()).isEqualTo("write"));
        assertThat(kinds).containsEntry("PATCH /v1/profiles/{pid}", "write")
                .containsEntry("POST /v1/users/{uid}/merge", "write")
                .containsEntry("DELETE /v1/profiles/{pid}/versions", "write");
    }

    static String verb(Method method) {
        for (var verb : List.of(GET.class, POST.class, PUT.class, PATCH.class, DELETE.class)) {
            if (method.isAnnotationPresent(verb)) {
                return verb.getSimpleName();
            }
        }
        return null;
    }

    static String path(Class<?> type, Method method) {
        String base = type.getAnnotation(Path.class).value();
        var sub = method.getAnnotation(Path.class);
        return sub == null ? base : base + "/" + sub.value();
    }

    static ResourceInfo info(Class<?> type, Method method) {
        return new ResourceInfo() {
            @Override
            public Method getResourceMethod() {
                return method;
            }

            @Override
            public Class<?> getResourceClass() {
                return type;
            }
        };
    }
}
