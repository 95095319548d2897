package io.profilestore.auth;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin ports of both roles, API and indexer: thread dumps, CPU profiles and tasks need an admin token; only
 * what probes and scrapers read is open. Threads are not named after requests.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdminPortAuthTest {

    static final DropwizardAppExtension<ProfileStoreConfiguration> API = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** What shows requests or changes things: GET unless it is a task. */
    static final List<String> GUARDED = List.of("GET /threads", "GET /pprof", "GET /", "POST /tasks/gc",
            "POST /tasks/log-level?logger=org.apache.hc.client5.http.wire&level=DEBUG", "GET /no-such-page");
    static final List<String> OPEN = List.of("/healthcheck", "/ping", "/metrics", "/prometheus");

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
    void aThreadDumpDoesNotShowWhatIsSearched() throws Exception {
        var operator = new Api(API.getLocalPort()).as(TestAuth.OPERATOR);
        String secretName = "Нитевидова";
        var search = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                operator.send("GET", "/v1/search?surname=" + secretName, null, null, Map.of());
            }
        });
        search.start();
        try {
            var admin = new Api(API.getAdminPort()).as(TestAuth.ADMIN);
            for (int i = 0; i < 20 && search.isAlive(); i++) {
                var dump = admin.send("GET", "/threads", null, null, Map.of());
                assertThat(dump.status()).isEqualTo(200);
                assertThat(dump.body()).as("the admin's thread dump").contains("Thread").doesNotContain("surname=");
            }
        } finally {
            search.join();
        }
    }

    private static void assertGuarded(Api admin, String... more) {
        var calls = new java.util.ArrayList<>(GUARDED);
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
