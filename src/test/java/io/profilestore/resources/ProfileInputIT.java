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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Refused bodies on a real server: one naming a person is refused without reaching a log, the client still sending
 * one hears the refusal, a chunked one is cut off, and the connection stays usable; each case is sent at an existing
 * profile, which must read the same afterwards. The input checks themselves (bad JSON, documents, media types,
 * identifiers, body limits) run over the twins in {@link ProfileInputTest}.
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

    /**
     * Jackson's own message would quote the input: the answer does not, and neither may any log of the real server
     * (the scan of the run's logs looks for SECRET). The other input checks are in {@link ProfileInputTest}.
     */
    @Test
    void aMalformedBodyNamingAPersonIsRefusedWithoutQuotingIt() {
        var reply = api.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": {\"surname\": " + SECRET + "}",
                Map.of("If-Match", etag(1)));

        assertProblem(reply, 400, "malformed-json");
        assertThat(reply.body()).doesNotContain(SECRET);
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
}
