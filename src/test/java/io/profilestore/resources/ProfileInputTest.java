package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.testing.ProfileApiOverTwins;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gets a clear application/problem+json 4xx and changes nothing: each case is sent at an existing
 * profile, which must read the same afterwards. What needs a real server (a body still being sent when the answer
 * goes, a chunked body, a connection kept alive after a refusal) is in {@link ProfileInputIT}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileInputTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();
    static final String SECRET = "Гуревич";
    static final String JSON = "application/json";
    static final String MERGE_PATCH = ProfileResource.MERGE_PATCH;
    /** A body exactly as large as a change of one profile may be. */
    static final int SINGLE_BODY_LIMIT = (int) ProfileResource.SINGLE_BODY_LIMIT;

    UUID pid;
    ProfileApiOverTwins.Snapshot before;

    @BeforeEach
    void existingProfile() {
        pid = API.existing("{\"surname\": \"" + SECRET + "\"}");
        before = API.snapshot(pid);
    }

    @AfterEach
    void nothingChanged() {
        assertThat(API.snapshot(pid)).isEqualTo(before);
    }

    static String big(int bytes) {
        return "{\"blob\": \"" + "x".repeat(bytes) + "\"}";
    }

    static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    /** A replace whose whole body is {@code bytes} long: its data is one string of x that fills it. */
    static String replaceOfLength(int bytes) {
        String envelope = "{\"data\": {\"blob\": \"\"}}";
        return "{\"data\": {\"blob\": \"" + "x".repeat(bytes - envelope.length()) + "\"}}";
    }

    static Stream<Arguments> badChanges() {
        return Stream.of(
                Arguments.of("malformed JSON", "PUT", JSON, "{\"data\": {\"surname\": " + SECRET + "}", 400, "malformed-json"),
                Arguments.of("truncated JSON", "PUT", JSON, "{\"data\": {", 400, "malformed-json"),
                Arguments.of("data an array", "PUT", JSON, "{\"data\": [1, 2]}", 400, "invalid-document"),
                Arguments.of("data a string", "PUT", JSON, "{\"data\": \"" + SECRET + "\"}", 400, "invalid-document"),
                Arguments.of("data null", "PUT", JSON, "{\"data\": null}", 400, "invalid-document"),
                Arguments.of("data missing", "PUT", JSON, "{}", 400, "invalid-document"),
                Arguments.of("no body", "PUT", JSON, "", 400, "bad-request"),
                Arguments.of("body not an object", "PUT", JSON, "[]", 400, "invalid-field"),
                Arguments.of("unknown field", "PUT", JSON, "{\"data\": {}, \"owner\": \"" + UUID.randomUUID() + "\"}", 400,
                        "unknown-field"),
                // a uid belongs to a create at this pid (If-None-Match: *); a replace does not move a profile
                Arguments.of("uid in a replace", "PUT", JSON, "{\"data\": {}, \"uid\": \"" + UUID.randomUUID() + "\"}", 400,
                        "bad-request"),
                Arguments.of("uid not a UUID", "PUT", JSON, "{\"data\": {}, \"uid\": \"" + SECRET + "\"}", 400,
                        "invalid-field"),
                Arguments.of("duplicate key", "PUT", JSON, "{\"data\": {\"a\": 1, \"a\": 2}}", 400, "malformed-json"),
                Arguments.of("duplicate data", "PUT", JSON, "{\"data\": {}, \"data\": {\"a\": 1}}", 400, "malformed-json"),
                Arguments.of("nested too deep", "PUT", JSON, "{\"data\": {\"deep\": " + nested(100) + "}}", 400,
                        "malformed-json"),
                // 65 levels: the envelope, data, and 63 arrays
                Arguments.of("nested one level too deep", "PUT", JSON, "{\"data\": {\"deep\": " + nested(63) + "}}", 400,
                        "malformed-json"),
                Arguments.of("document over 64 KiB", "PUT", JSON, "{\"data\": " + big(65_600) + "}", 413,
                        "document-too-large"),
                // read whole (the document is what is too large), one byte more is not read
                Arguments.of("body at the limit", "PUT", JSON, replaceOfLength(SINGLE_BODY_LIMIT), 413, "document-too-large"),
                Arguments.of("body one byte over the limit", "PUT", JSON, replaceOfLength(SINGLE_BODY_LIMIT + 1), 413,
                        "body-too-large"),
                Arguments.of("body over the limit", "PUT", JSON, "{\"data\": " + big(200_000) + "}", 413, "body-too-large"),
                Arguments.of("text/plain", "PUT", "text/plain", "{\"data\": {}}", 415, "unsupported-media-type"),
                Arguments.of("no content type", "PUT", null, "{\"data\": {}}", 415, "unsupported-media-type"),
                Arguments.of("replace as a merge patch", "PUT", MERGE_PATCH, "{\"data\": {}}", 415, "unsupported-media-type"),
                Arguments.of("patch as application/json", "PATCH", JSON, "{\"a\": 1}", 415, "unsupported-media-type"),
                Arguments.of("patch not an object", "PATCH", MERGE_PATCH, "\"" + SECRET + "\"", 400, "invalid-document"),
                Arguments.of("patch an array", "PATCH", MERGE_PATCH, "[{\"surname\": \"" + SECRET + "\"}]", 400,
                        "invalid-document"),
                Arguments.of("patch null", "PATCH", MERGE_PATCH, "null", 400, "invalid-document"),
                Arguments.of("patch empty", "PATCH", MERGE_PATCH, "", 400, "invalid-document"),
                Arguments.of("patch malformed", "PATCH", MERGE_PATCH, "{\"a\": ", 400, "malformed-json"),
                Arguments.of("patch with a duplicate key", "PATCH", MERGE_PATCH, "{\"a\": 1, \"a\": 2}", 400,
                        "malformed-json"),
                Arguments.of("patch nested too deep", "PATCH", MERGE_PATCH, "{\"deep\": " + nested(100) + "}", 400,
                        "malformed-json"),
                Arguments.of("patch grows past 64 KiB", "PATCH", MERGE_PATCH, big(65_600), 413, "document-too-large"),
                Arguments.of("patch over the body limit", "PATCH", MERGE_PATCH, big(200_000), 413, "body-too-large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badChanges")
    void aBadChangeIsRefusedClearly(String name, String method, String contentType, String body, int status, String type) {
        var reply = API.send(method, "/v1/profiles/" + pid, contentType, body, Map.of("If-Match", etag(1)));

        assertProblem(reply, status, type);
        assertThat(reply.body()).as("problems never echo the document").doesNotContain(SECRET);
    }

    /**
     * 64 levels of nesting in all, the most a body may have, are read. (The version is stale, so that the answer
     * comes from the service, which only a body that was read reaches, and the profile stays as it was.)
     */
    @Test
    void aDocumentNestedAsDeepAsAllowedIsRead() {
        var reply = API.send("PUT", "/v1/profiles/" + pid, JSON, "{\"data\": {\"deep\": " + nested(62) + "}}",
                Map.of("If-Match", etag(7)));

        assertProblem(reply, 412, "stale-version");
    }

    @Test
    void aBodyThatDeclaresMoreThanTheLimitIsRefusedBeforeItIsRead() {
        var reply = API.send("PUT", "/v1/profiles/" + pid, JSON, "{\"data\": {}}",
                Map.of("If-Match", etag(1), "Content-Length", Long.toString(SINGLE_BODY_LIMIT + 1)));

        assertProblem(reply, 413, "body-too-large");
        assertThat(reply.json().path("limit").asLong()).isEqualTo(SINGLE_BODY_LIMIT);
    }

    static Stream<Arguments> malformedIdentifiers() {
        return Stream.of(
                Arguments.of("a read of a pid that is not a UUID", "GET", "/v1/profiles/not-a-uuid", null, null, Map.of(),
                        "bad-request"),
                Arguments.of("a replace of a pid that is not a UUID", "PUT", "/v1/profiles/12345", JSON, "{\"data\": {}}",
                        Map.of("If-Match", etag(1)), "bad-request"),
                // UUID.fromString would take it, as 00000001-0002-0003-0004-000000000005
                Arguments.of("a pid in a short form", "GET", "/v1/profiles/1-2-3-4-5", null, null, Map.of(),
                        "bad-request"),
                Arguments.of("a create for a uid that is not a UUID", "POST", "/v1/profiles", JSON,
                        "{\"uid\": \"nope\", \"data\": {}}", Map.of(), "invalid-field"),
                Arguments.of("a create for a uid that is a number", "POST", "/v1/profiles", JSON,
                        "{\"uid\": 5, \"data\": {}}", Map.of(), "invalid-field"),
                Arguments.of("If-Match without quotes", "PUT", "/v1/profiles/{pid}", JSON, "{\"data\": {}}",
                        Map.of("If-Match", "1"), "bad-request"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedIdentifiers")
    void aMalformedIdentifierIsA400(String name, String method, String path, String contentType, String body,
            Map<String, String> headers, String type) {
        var reply = API.send(method, path.replace("{pid}", pid.toString()), contentType, body, headers);

        assertProblem(reply, 400, type);
    }

    @Test
    void aPidIsReadInUpperCaseToo() {
        var read = API.send("GET", "/v1/profiles/" + pid.toString().toUpperCase(), null, null, Map.of());

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("pid").asText()).isEqualTo(pid.toString());
    }

    @Test
    void unknownProfilesRoutesAndMethodsAreClear() {
        var unknown = UUID.randomUUID();
        var notFound = API.get(unknown);
        assertProblem(notFound, 404, "profile-not-found");
        assertThat(notFound.json().path("pids").toString()).contains(unknown.toString());
        assertProblem(API.send("GET", "/v1/nothing-here", null, null, Map.of()), 404, "not-found");
        var wrongMethod = API.send("DELETE", "/v1/profiles", null, null, Map.of());
        assertProblem(wrongMethod, 405, "method-not-allowed");
        assertThat(wrongMethod.header("Allow")).contains("POST");
        assertProblem(API.send("GET", "/v1/profiles/" + pid, null, null, Map.of("Accept", "text/html")), 406,
                "not-acceptable");
    }

    /**
     * An erase and a purge answer no body but a problem, so the OpenAPI document names only application/problem+json
     * for them, and a client generated from it (docs/java-client.md) accepts just that: JavaClientIT's erase was
     * answered 406.
     */
    @Test
    void aChangeThatAnswersNoBodyServesAClientThatAcceptsOnlyProblems() {
        var onlyProblems = Map.of("Accept", "application/problem+json");
        var erased = API.create("{\"n\": 1}").pid();

        var stale = API.send("DELETE", "/v1/profiles/" + erased, null, null, Map.of("Accept", "application/problem+json",
                "If-Match", "\"7\""));
        var erase = API.send("DELETE", "/v1/profiles/" + erased, null, null, Map.of("Accept", "application/problem+json",
                "If-Match", "\"1\""));
        var purge = API.send("DELETE", "/v1/profiles/" + erased + "/versions", null, null, onlyProblems);

        assertProblem(stale, 412, "stale-version");
        assertThat(erase.status()).as(erase.body()).isEqualTo(204);
        assertThat(purge.status()).as(purge.body()).isEqualTo(204);
    }

    /** Jersey would answer a HEAD with the GET's headers, a look-up the audit trail would not see. */
    @Test
    void aHeadIsRefusedWithTheMethodsThatAreAllowed() {
        int lookUps = API.lookUps.recorded().size();

        var head = API.send("HEAD", "/v1/profiles/" + pid, null, null, Map.of());

        assertThat(head.status()).isEqualTo(405);
        assertThat(head.etag()).as("nothing tells the profile is there").isNull();
        assertThat(head.header("Allow")).contains("GET").doesNotContain("HEAD");
        assertThat(API.lookUps.recorded()).hasSize(lookUps);
    }

    @Test
    void badCreatesCreateNothing() {
        var uid = UUID.fromString(API.get(pid).json().path("uid").asText());
        int announced = API.stores.outbox.records().size();

        assertProblem(API.send("POST", "/v1/profiles", JSON, "{\"uid\": \"" + uid + "\", \"data\": [1]}", Map.of()),
                400, "invalid-document");
        assertProblem(API.send("POST", "/v1/profiles", JSON,
                "{\"uid\": \"" + uid + "\", \"data\": " + big(70_000) + "}", Map.of()), 413, "document-too-large");
        assertProblem(API.send("POST", "/v1/profiles", MERGE_PATCH, "{\"data\": {}}", Map.of()), 415,
                "unsupported-media-type");
        assertProblem(API.send("POST", "/v1/profiles", JSON, "{\"pid\": \"" + pid + "\", \"data\": {}}", Map.of()),
                400, "unknown-field");

        assertThat(API.stores.rows.pidsOfUser(uid)).containsExactly(pid);
        assertThat(API.stores.outbox.records()).hasSize(announced);
    }

    /** The version is stale, as above: the answer comes from the service, past the body's media type and parsing. */
    @Test
    void aBodyInUtf8NamedByItsCharsetIsRead() {
        var reply = API.send("PUT", "/v1/profiles/" + pid, "application/json; charset=utf-8",
                "{\"data\": {\"surname\": \"Иванова\"}}", Map.of("If-Match", etag(7)));

        assertProblem(reply, 412, "stale-version");
    }
}
