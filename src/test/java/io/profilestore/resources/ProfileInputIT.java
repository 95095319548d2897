package io.profilestore.resources;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.PersonalData;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
 * profile, which must read the same afterwards.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileInputIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    static final String SECRET = "Гуревич";

    static {
        PersonalData.note(SECRET);
    }

    Api api;
    UUID pid;
    ProfileApiIT.Snapshot before;

    @BeforeEach
    void existingProfile() {
        api = new Api(APP.getLocalPort());
        var created = api.create("{\"surname\": \"" + SECRET + "\"}");
        assertThat(created.status()).isEqualTo(201);
        pid = created.pid();
        before = ProfileApiIT.Snapshot.of(api, pid);
    }

    @AfterEach
    void nothingChanged() {
        assertThat(ProfileApiIT.Snapshot.of(api, pid)).isEqualTo(before);
    }

    static String big(int bytes) {
        return "{\"blob\": \"" + "x".repeat(bytes) + "\"}";
    }

    static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    static Stream<Arguments> badChanges() {
        return Stream.of(
                Arguments.of("malformed JSON", "PUT", "application/json", "{\"data\": {\"surname\": " + SECRET + "}", 400, "malformed-json"),
                Arguments.of("truncated JSON", "PUT", "application/json", "{\"data\": {", 400, "malformed-json"),
                Arguments.of("data an array", "PUT", "application/json", "{\"data\": [1, 2]}", 400, "invalid-document"),
                Arguments.of("data a string", "PUT", "application/json", "{\"data\": \"" + SECRET + "\"}", 400, "invalid-document"),
                Arguments.of("data null", "PUT", "application/json", "{\"data\": null}", 400, "invalid-document"),
                Arguments.of("data missing", "PUT", "application/json", "{}", 400, "invalid-document"),
                Arguments.of("no body", "PUT", "application/json", "", 400, "bad-request"),
                Arguments.of("body not an object", "PUT", "application/json", "[]", 400, "invalid-field"),
                Arguments.of("unknown field", "PUT", "application/json", "{\"data\": {}, \"owner\": \"" + UUID.randomUUID() + "\"}", 400, "unknown-field"),
                // a uid belongs to a create at this pid (If-None-Match: *); a replace does not move a profile
                Arguments.of("uid in a replace", "PUT", "application/json", "{\"data\": {}, \"uid\": \"" + UUID.randomUUID() + "\"}", 400, "bad-request"),
                Arguments.of("duplicate key", "PUT", "application/json", "{\"data\": {\"a\": 1, \"a\": 2}}", 400, "malformed-json"),
                Arguments.of("nested too deep", "PUT", "application/json", "{\"data\": {\"deep\": " + nested(100) + "}}", 400, "malformed-json"),
                Arguments.of("document over 64 KiB", "PUT", "application/json", "{\"data\": " + big(65_600) + "}", 413, "document-too-large"),
                Arguments.of("body over the limit", "PUT", "application/json", "{\"data\": " + big(200_000) + "}", 413, "body-too-large"),
                Arguments.of("text/plain", "PUT", "text/plain", "{\"data\": {}}", 415, "unsupported-media-type"),
                Arguments.of("no content type", "PUT", null, "{\"data\": {}}", 415, "unsupported-media-type"),
                Arguments.of("patch as application/json", "PATCH", "application/json", "{\"a\": 1}", 415, "unsupported-media-type"),
                Arguments.of("patch not an object", "PATCH", "application/merge-patch+json", "\"" + SECRET + "\"", 400, "invalid-document"),
                Arguments.of("patch null", "PATCH", "application/merge-patch+json", "null", 400, "invalid-document"),
                Arguments.of("patch malformed", "PATCH", "application/merge-patch+json", "{\"a\": ", 400, "malformed-json"),
                Arguments.of("patch grows past 64 KiB", "PATCH", "application/merge-patch+json", big(65_600), 413, "document-too-large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badChanges")
    void aBadChangeIsRefusedClearly(String name, String method, String contentType, String body, int status, String type) {
        var reply = api.send(method, "/v1/profiles/" + pid, contentType, body, Map.of("If-Match", etag(1)));

        assertProblem(reply, status, type);
        assertThat(reply.body()).as("problems never echo the document").doesNotContain(SECRET);
    }

    @Test
    void aClientStillSendingARefusedBodyGetsThe413NotABrokenPipe() {
        // the server answers before reading the body; it reads and drops the rest so the sender is not cut off
        for (int i = 0; i < 10; i++) {
            var reply = api.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": " + big(600_000) + "}",
                    Map.of("If-Match", etag(1)));
            assertProblem(reply, 413, "body-too-large");
        }
    }

    @Test
    void aRequestRefusedBeforeItsBodyWasReadLeavesTheConnectionUsable() {
        // a 401 is answered before the body is read; the next request on the kept-alive connection must not
        // meet a connection closed under it
        var anonymous = api.as(null);
        for (int i = 0; i < 20; i++) {
            assertProblem(anonymous.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": " + big(20_000) + "}",
                    Map.of("If-Match", etag(1))), 401, "unauthorized");
            assertThat(api.get(pid).status()).isEqualTo(200);
        }
    }

    @Test
    void aBodyOverTheLimitIsCutOffWhenItComesChunked() throws Exception {
        var body = HttpRequest.BodyPublishers.ofInputStream(() ->
                new ByteArrayInputStream(("{\"data\": " + big(300_000) + "}").getBytes(StandardCharsets.UTF_8)));
        var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + APP.getLocalPort() + "/v1/profiles/" + pid))
                .header("Content-Type", "application/json")
                .header("If-Match", etag(1))
                .header("Authorization", "Bearer " + TestAuth.PLATFORM_AND_ADMIN)
                .method("PUT", body)
                .build();

        var reply = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

        assertThat(body.contentLength()).as("no Content-Length: sent chunked, so the limit applies while reading").isEqualTo(-1);
        assertThat(reply.statusCode()).isEqualTo(413);
        assertThat(reply.body()).contains("body-too-large");
    }

    @Test
    void malformedIdentifiersAreA400() {
        assertProblem(api.send("GET", "/v1/profiles/not-a-uuid", null, null, Map.of()), 400, "bad-request");
        assertProblem(api.send("PUT", "/v1/profiles/12345", "application/json", "{\"data\": {}}", Map.of("If-Match", etag(1))),
                400, "bad-request");
        assertProblem(api.send("POST", "/v1/profiles", "application/json", "{\"uid\": \"nope\", \"data\": {}}", Map.of()),
                400, "invalid-field");
        assertProblem(api.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": {}}", Map.of("If-Match", "1")),
                400, "bad-request");
    }

    @Test
    void unknownProfilesRoutesAndMethodsAreClear() {
        assertProblem(api.get(UUID.randomUUID()), 404, "profile-not-found");
        assertProblem(api.send("GET", "/v1/nothing-here", null, null, Map.of()), 404, "not-found");
        var wrongMethod = api.send("DELETE", "/v1/profiles", null, null, Map.of());
        assertProblem(wrongMethod, 405, "method-not-allowed");
        assertThat(wrongMethod.headers().firstValue("Allow")).hasValueSatisfying(allow -> assertThat(allow).contains("POST"));
        assertProblem(api.send("GET", "/v1/profiles/" + pid, null, null, Map.of("Accept", "text/html")), 406, "not-acceptable");
    }

    @Test
    void badCreatesCreateNothing() {
        var uid = UUID.randomUUID();
        assertProblem(api.send("POST", "/v1/profiles", "application/json", "{\"uid\": \"" + uid + "\", \"data\": [1]}", Map.of()),
                400, "invalid-document");
        assertProblem(api.send("POST", "/v1/profiles", "application/json", "{\"uid\": \"" + uid + "\", \"data\": " + big(70_000) + "}",
                Map.of()), 413, "document-too-large");
        assertThat(Stores.pidsOfUser(uid)).isEmpty();
    }
}
