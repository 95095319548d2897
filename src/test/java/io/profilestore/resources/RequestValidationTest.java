package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.testing.junit5.ResourceExtension;
import io.profilestore.api.JsonFormat;
import io.profilestore.api.Problem;
import io.profilestore.resources.problems.ConstraintViolationMapper;
import io.profilestore.resources.problems.JsonExceptionMapper;
import io.profilestore.resources.problems.ProblemExceptionMapper;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Requests the resources refuse before they call a service, answered in milliseconds without a backing service.
 * The resources get no services: a request that got past its constraints would call one and fail with a 500, so a
 * missing constraint fails these tests. Dropwizard's own exception mappers stay registered, as they would be with
 * {@code server.registerDefaultExceptionMappers} on: the answers prove the project's mapper wins over them.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestValidationTest {

    private static final ObjectMapper JSON = JsonFormat.configure(Jackson.newObjectMapper());
    private static final String PID = UUID.randomUUID().toString();
    private static final String SECRET = "Секретова";

    static final ResourceExtension RESOURCES = ResourceExtension.builder()
            .setMapper(JSON)
            .addResource(new ProfileResource(null, null))
            .addResource(new UserResource(null, null))
            .addResource(new SearchResource(null))
            .addResource(new AuditResource(null))
            .addProvider(new ProblemExceptionMapper())
            .addProvider(new JsonExceptionMapper())
            .addProvider(new ConstraintViolationMapper())
            .addProvider(new ConditionalWriteChecks())
            .build();

    static Stream<Arguments> refusedBodies() {
        return Stream.of(
                Arguments.of("create without a body", "POST", "/v1/profiles", "", "the request body must not be null"),
                Arguments.of("replace with a null body", "PUT", "/v1/profiles/" + PID, "null",
                        "the request body must not be null"),
                Arguments.of("batch create without profiles", "POST", "/v1/profiles:batchCreate", "{}",
                        "'profiles' must not be null"),
                Arguments.of("batch create with a null profile", "POST", "/v1/profiles:batchCreate",
                        "{\"profiles\": [{\"data\": {}}, null]}", "'profiles[1]' must not be null"),
                Arguments.of("batch update without updates", "POST", "/v1/profiles:batchUpdate", "{}",
                        "'updates' must not be null"),
                Arguments.of("batch update with a null update", "POST", "/v1/profiles:batchUpdate",
                        "{\"updates\": [null]}", "'updates[0]' must not be null"),
                Arguments.of("batch update without a pid", "POST", "/v1/profiles:batchUpdate",
                        "{\"updates\": [{\"version\": 1, \"data\": {\"surname\": \"" + SECRET + "\"}}]}",
                        "'updates[0].pid' must not be null"),
                Arguments.of("batch update without a version", "POST", "/v1/profiles:batchUpdate",
                        "{\"updates\": [{\"pid\": \"" + PID + "\", \"version\": 1, \"data\": {}},"
                                + " {\"pid\": \"" + UUID.randomUUID() + "\", \"data\": {}}]}",
                        "'updates[1].version' must not be null"),
                Arguments.of("move without a uid", "PUT", "/v1/profiles/" + PID + "/user", "{}",
                        "'uid' must not be null"),
                Arguments.of("merge without sources", "POST", "/v1/users/" + PID + "/merge", "{}",
                        "'sources' must not be null"),
                Arguments.of("unmerge without a body", "POST", "/v1/users/" + PID + "/unmerge", "",
                        "the request body must not be null"),
                Arguments.of("search without a body", "POST", "/v1/search", "", "the request body must not be null"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBodies")
    void aBodyThatBreaksAConstraintIsABadRequestNamingTheField(String name, String method, String path, String body,
            String detail) throws IOException {
        var reply = RESOURCES.target(path).request()
                .header("If-Match", "\"1\"")
                .method(method, Entity.entity(body, MediaType.APPLICATION_JSON));

        var problem = problem(reply);
        assertThat(problem.path("detail").asText()).isEqualTo(detail);
        assertThat(problem.toString()).as("the answer never quotes the request").doesNotContain(SECRET);
    }

    @Test
    void everyBrokenConstraintIsNamedInOneAnswer() throws IOException {
        var reply = RESOURCES.target("/v1/profiles:batchUpdate").request()
                .post(Entity.json("{\"updates\": [{\"data\": {}}, null]}"));

        assertThat(problem(reply).path("detail").asText())
                .isEqualTo("'updates[0].pid' must not be null; 'updates[0].version' must not be null;"
                        + " 'updates[1]' must not be null");
    }

    @Test
    void anActorNoOneCanHaveIsRefusedWithoutQuotingIt() throws IOException {
        var tooLong = RESOURCES.target("/v1/audit").queryParam("actor", SECRET.repeat(30)).request().get();
        assertThat(problem(tooLong).path("detail").asText()).isEqualTo("'actor' must be at most 200 characters");

        // a NUL, which PostgreSQL's text cannot hold, must not reach the audit log's query
        var withNul = RESOURCES.target("/v1/audit").queryParam("actor", SECRET + "\u0000").request().get();
        var problem = problem(withNul);
        assertThat(problem.path("detail").asText()).isEqualTo("'actor' must not contain control characters");
        assertThat(problem.toString()).doesNotContain(SECRET);
    }

    /** The answer is the API's 400 problem for a request it refuses, as problem+json. */
    static Stream<Arguments> conditionalWritesRefusedInTheOrderOfTheirChecks() {
        return Stream.of(
                Arguments.of("replace without If-Match or a body", "/v1/profiles/" + PID, null, "", 428,
                        "precondition-required"),
                Arguments.of("move without If-Match or a uid", "/v1/profiles/" + PID + "/user", null, "{}", 428,
                        "precondition-required"),
                Arguments.of("replace of a bad pid without If-Match or a body", "/v1/profiles/not-a-pid", null, "",
                        400, "bad-request"),
                Arguments.of("replace with unreadable JSON and without If-Match", "/v1/profiles/" + PID, null, "{",
                        428, "precondition-required"),
                Arguments.of("move of a bad pid without If-Match or a uid", "/v1/profiles/not-a-pid/user", null, "{}", 400,
                        "bad-request"));
    }

    /**
     * A conditional write checks its pid, then its If-Match, then its body, whatever else is wrong: a client that
     * forgot If-Match hears 428 even when its body is wrong too, as it did before the body had constraints.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("conditionalWritesRefusedInTheOrderOfTheirChecks")
    void aConditionalWriteIsCheckedPidFirstThenIfMatchThenItsBody(String name, String path, String ifMatch,
            String body, int status, String type) throws IOException {
        var request = RESOURCES.target(path).request();
        if (ifMatch != null) {
            request = request.header("If-Match", ifMatch);
        }
        var reply = request.put(Entity.entity(body, MediaType.APPLICATION_JSON));

        assertThat(reply.getStatus()).isEqualTo(status);
        var problem = JSON.readTree(reply.readEntity(String.class));
        assertThat(problem.path("type").asText()).isEqualTo(Problem.TYPE_BASE + type);
        if (path.contains("not-a-pid")) {
            assertThat(problem.path("detail").asText()).as("the pid is named first").contains("pid");
        }
    }

    /** What a create at a given pid (PUT with If-None-Match: *) is refused for before any service is called. */
    static Stream<Arguments> createsAtAPidRefused() {
        return Stream.of(
                Arguments.of("If-None-Match other than *", "PUT", "/v1/profiles/" + PID, null, "\"1\"",
                        "{\"data\": {}}", "If-None-Match takes * alone"),
                Arguments.of("If-Match and If-None-Match both", "PUT", "/v1/profiles/" + PID, "\"1\"", "*",
                        "{\"data\": {}}", "not both"),
                Arguments.of("If-None-Match on a move", "PUT", "/v1/profiles/" + PID + "/user", null, "*",
                        "{\"uid\": \"" + PID + "\"}", "PUT /v1/profiles/{pid} only"),
                Arguments.of("a uid beside If-Match", "PUT", "/v1/profiles/" + PID, "\"1\"", null,
                        "{\"uid\": \"" + PID + "\", \"data\": {}}", "PUT /v1/profiles/{pid}/user"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("createsAtAPidRefused")
    void aCreateAtAPidIsRefusedWhenItsHeadersOrBodySayOtherwise(String name, String method, String path, String ifMatch,
            String ifNoneMatch, String body, String detail) throws IOException {
        var request = RESOURCES.target(path).request();
        if (ifMatch != null) {
            request = request.header("If-Match", ifMatch);
        }
        if (ifNoneMatch != null) {
            request = request.header("If-None-Match", ifNoneMatch);
        }

        var problem = problem(request.method(method, Entity.entity(body, MediaType.APPLICATION_JSON)));

        assertThat(problem.path("detail").asText()).contains(detail);
    }

    private static JsonNode problem(Response reply) throws IOException {
        String body = reply.readEntity(String.class);
        assertThat(reply.getStatus()).as(body).isEqualTo(400);
        assertThat(reply.getMediaType().toString()).isEqualTo(Problem.MEDIA_TYPE);
        var problem = JSON.readTree(body);
        assertThat(problem.path("type").asText()).isEqualTo(Problem.TYPE_BASE + "bad-request");
        assertThat(problem.path("status").asInt()).isEqualTo(400);
        assertThat(problem.path("title").asText()).isEqualTo("Bad request");
        return problem;
    }
}
