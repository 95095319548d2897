package io.profilestore.auth;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin ports of both roles, API and indexer: thread dumps, CPU profiles and tasks need an admin token; only
 * what probes and scrapers read is open. Threads are not named after requests.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdminPortAuthIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> API = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** What shows requests or changes things: GET unless it is a task. */
    static final List<String> GUARDED = List.of("GET /threads", "GET /pprof", "GET /", "POST /tasks/gc",
            "POST /tasks/log-level?logger=org.apache.hc.client5.http.wire&level=DEBUG", "GET /no-such-page");
    static final List<String> OPEN = List.of("/healthcheck", "/ready", "/ping", "/metrics", "/prometheus");

    @Test
    void theApisAdminPortIsGuarded() {
        assertGuarded(new Api(API.getAdminPort()));
    }

    @Test
    void theIndexersAdminPortIsGuarded() throws Exception {
        try (var indexer = ServiceProcess.start("indexer", null, Map.of())) {
            assertGuarded(indexer.adminApi());
            assertGuarded(indexer.adminApi(), "POST /tasks/reconcile");
        }
    }

    @Test
    void aThreadDumpDoesNotShowWhatARequestAsks() throws Exception {
        // a request held in flight: its body is promised and never comes, so its thread waits reading it while
        // the dump is taken (with Jetty's thread name filter on, that thread was named with the URL)
        try (var held = new Socket("127.0.0.1", API.getLocalPort())) {
            held.getOutputStream().write(("POST /v1/profiles?surname=%D0%9D%D0%B8%D1%82%D0%B5%D0%B2%D0%B8%D0%B4%D0%BE%D0%B2%D0%B0 HTTP/1.1\r\n"
                    + "Host: localhost\r\nAuthorization: Bearer " + TestAuth.PLATFORM + "\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"data\": {").getBytes(StandardCharsets.UTF_8));
            held.getOutputStream().flush();
            var admin = new Api(API.getAdminPort()).as(TestAuth.ADMIN);
            var dump = Awaitility.await("the held request's thread reading its body")
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> admin.send("GET", "/threads", null, null, Map.of()),
                            reply -> reply.status() == 200 && reply.body().contains("BodyLimitFeature"));
            assertThat(dump.body()).as("the admin's thread dump").doesNotContain("surname=").doesNotContain("/v1/profiles");
        }
    }

    private static void assertGuarded(Api admin, String... more) {
        var calls = new ArrayList<>(GUARDED);
        calls.addAll(List.of(more));
        for (String call : calls) {
            String method = call.substring(0, call.indexOf(' '));
            String path = call.substring(call.indexOf(' ') + 1);
            assertProblem(admin.as(null).send(method, path, null, null, Map.of()), 401, "unauthorized");
            assertProblem(admin.as(TestAuth.OPERATOR).send(method, path, null, null, Map.of()), 403, "forbidden");
            assertProblem(admin.as(TestAuth.PLATFORM).send(method, path, null, null, Map.of()), 403, "forbidden");
        }
        assertThat(admin.as(TestAuth.ADMIN).send("GET", "/threads", null, null, Map.of()).status()).isEqualTo(200);
        for (String path : OPEN) {
            assertThat(admin.as(null).send("GET", path, null, null, Map.of()).status()).as(path).isIn(200, 503);
        }
    }
}
