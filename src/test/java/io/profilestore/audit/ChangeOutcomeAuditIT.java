package io.profilestore.audit;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A change is recorded in the audit trail in the transaction that records it, before Cassandra is written, so its
 * outcome is not known yet then. The record must not claim one: it carries the status the caller was answered.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ChangeOutcomeAuditIT {

    static final PausingProbe PROBE = ProbedApplication.PROBE;

    // a socket timeout longer than any wait below: a write held by a lock blocks until the lock goes, not 5 s
    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("postgres.socketTimeout", "60s")));

    Api platform;
    Api admin;

    @BeforeEach
    void callers() {
        platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        admin = platform.as(TestAuth.ADMIN);
    }

    @Test
    void aChangeIsRecordedWithTheStatusItWasAnswered() {
        var created = platform.create("{\"surname\": \"Аудитова\"}");
        var pid = created.pid();
        assertThat(platform.put(pid, etag(1), "{\"surname\": \"Аудитова-Петрова\"}").status()).isEqualTo(200);
        assertThat(platform.delete(pid, etag(2)).status()).isEqualTo(204);

        awaitStatuses(pid, "DELETE /v1/profiles/{pid} 204", "PUT /v1/profiles/{pid} 200", "POST /v1/profiles 201");
    }

    /**
     * The outcome is a fact added after the answer, not a condition of it: with its table locked (the owner holds
     * the lock), a change is still answered at once, and its outcome is written once the lock goes. While the writer
     * waits for the lock, the next change's outcome waits in the queue, and the gauge counts it.
     */
    @Test
    void aChangeIsAnsweredWithoutWaitingForItsOutcomeToBeWritten() throws Exception {
        var pid = platform.create("{\"surname\": \"Аудитова\"}").pid();
        awaitStatuses(pid, "POST /v1/profiles 201");
        try (Connection owner = TestStack.asOwner().getConnection()) {
            owner.setAutoCommit(false);
            try (var lock = owner.createStatement()) {
                lock.execute("LOCK TABLE audit_outcome IN ACCESS EXCLUSIVE MODE");
            }
            var put = CompletableFuture.supplyAsync(() -> platform.put(pid, etag(1), "{\"surname\": \"Аудитова-Петрова\"}"));
            assertThat(put.get(20, TimeUnit.SECONDS).status()).as("answered while the outcome's table is locked")
                    .isEqualTo(200);
            await("the outcome's INSERT to wait for the table").atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(50)).until(() -> TestStack.waitsForLock("audit_outcome"));
            assertThat(platform.put(pid, etag(2), "{\"surname\": \"Аудитова\"}").status()).isEqualTo(200);
            await("the next outcome to be queued").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                    .until(() -> outcomesQueued() == 1);
            owner.rollback();
        }
        awaitStatuses(pid, "PUT /v1/profiles/{pid} 200", "PUT /v1/profiles/{pid} 200", "POST /v1/profiles 201");
        assertThat(outcomesQueued()).isZero();
    }

    @Test
    void aChangeWhoseWriteFailedIsNotRecordedAsDone() throws Exception {
        var pid = platform.create("{\"surname\": \"Аудитова\"}").pid();
        var pause = PROBE.pauseNext(pid, Step.RECORDED);

        var put = CompletableFuture.supplyAsync(() -> platform.put(pid, etag(1), "{\"surname\": \"Аудитова-Петрова\"}"));
        pause.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
            pause.resume();
            reply = put.get(60, TimeUnit.SECONDS);
        }

        await("the service to reach Cassandra again").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> platform.get(pid).status() == 200);
        assertThat(reply.status()).isEqualTo(503);
        awaitStatuses(pid, "PUT /v1/profiles/{pid} 503", "POST /v1/profiles 201");
    }

    static long outcomesQueued() {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(AuditOutcomeWriter.QUEUED).getValue()).longValue();
    }

    /** The outcomes are written just after the answers: waits, bounded, for the trail to show them. */
    private void awaitStatuses(UUID pid, String... newestFirst) {
        await("the audit trail of " + pid).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                .untilAsserted(() -> assertThat(statusesByAction(pid)).containsExactly(newestFirst));
    }

    private List<String> statusesByAction(UUID pid) {
        var reply = admin.send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var records = new ArrayList<String>();
        for (JsonNode record : reply.json().path("records")) {
            if (record.path("action").asText().startsWith("GET ")) {
                // this very polling (reading the trail is a look-up too), and the platform's reads, recorded just
                // after their answers: the changes' outcomes are what is asked here
                continue;
            }
            records.add(record.path("action").asText() + " " + record.path("status").asText());
        }
        return records;
    }
}
