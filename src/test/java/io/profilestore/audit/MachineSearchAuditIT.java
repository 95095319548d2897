package io.profilestore.audit;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A machine's searches are answered before their records are committed, never beyond the queue: with PostgreSQL
 * frozen, the queue fills and the next search is refused; once it is back, every search answered is in the trail.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MachineSearchAuditIT {

    static final int QUEUE = 2;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("postgres.socketTimeout", "2s"),
                    ConfigOverride.config("audit.machineSearchQueueSize", String.valueOf(QUEUE)),
                    ConfigOverride.config("audit.machineSearchLinger", "0ms")));

    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void aFullQueueRefusesTheSearchAndWhatWasAnsweredIsWrittenOncePostgresIsBack() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var admin = platform.as(TestAuth.ADMIN);
        String phone = SearchApi.uniquePhone();
        var pid = platform.create("{\"surname\": \"Очередёва\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1);
        String search = "/v1/search?phone=" + phone.replaceAll("\\D", "");
        var metrics = APP.getEnvironment().metrics();
        long refusedBefore = metrics.meter(MachineLookUpWriter.REFUSED).getCount();

        var answered = new ArrayList<Api.Reply>();
        Api.Reply refused = null;
        TestStack.stack().pause(Service.POSTGRES);
        try {
            // the writer holds one group (retried) and the queue QUEUE more: a few searches fill them
            for (int i = 0; i < 10 && refused == null; i++) {
                var reply = platform.send("GET", search, null, null, Map.of());
                if (reply.status() == 200) {
                    answered.add(reply);
                } else {
                    refused = reply;
                }
            }
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }

        assertThat(refused).as("a search past the full queue").isNotNull();
        assertProblem(refused, 503, "audit-unavailable");
        assertThat(refused.body()).doesNotContain(pid.toString());
        assertThat(answered).as("searches answered before the queue was full").hasSizeBetween(1, QUEUE + 1);
        assertThat(metrics.meter(MachineLookUpWriter.REFUSED).getCount()).isGreaterThan(refusedBefore);
        // the group held while PostgreSQL was frozen is committed (or, if its write timed out, written again): none of
        // the answered searches is missing
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            var reply = admin.send("GET", "/v1/audit?actor=test-platform&pid=" + pid, null, null, Map.of());
            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            var searches = new ArrayList<String>();
            reply.json().path("records").forEach(r -> {
                if (r.path("action").asText().equals("GET /v1/search")) {
                    searches.add(r.path("request").asText());
                }
            });
            assertThat(searches).as("the searches recorded").hasSizeGreaterThanOrEqualTo(answered.size());
        });
    }
}
