package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every answer about a merge is true: "nothing was changed" must stay true after the recovery has run, and a
 * merge that may still be completed is answered as such. Merges are journaled before Cassandra is written, and
 * the recovery completes a pending one after its delay: a failure after the journal is committed is not "nothing".
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MergeOutcomeIT {

    static final Duration RECOVERY = Duration.ofSeconds(2);
    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.recoveryDelay", RECOVERY.toSeconds() + "s"),
                    ConfigOverride.config("postgres.socketTimeout", "2s"),
                    ConfigOverride.config("profiles.writeAttempts", "2")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    @Test
    void aMergeWhoseWriteCassandraRefusedIsAnsweredAsItEnds() throws Exception {
        var target = newUser();
        var source = newUser();
        var pause = PROBE.pauseNextOf("user:" + source, Step.RECORDED);

        var merge = CompletableFuture.supplyAsync(() -> api.merge(target, source));
        pause.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
            pause.resume();
            reply = merge.get(60, TimeUnit.SECONDS);
        }

        assertAnswerTrueAfterRecovery(reply, target, source);
    }

    @Test
    void aMergeWhosePostgresCommitWentUnansweredIsNotAnsweredAsNothingChanged() throws Exception {
        var target = newUser();
        var source = newUser();
        var pause = PROBE.pauseNextOf("user:" + source, Step.COMMITTING);

        var merge = CompletableFuture.supplyAsync(() -> api.merge(target, source));
        pause.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        TestStack.stack().pause(Service.POSTGRES); // the COMMIT goes out and waits in the socket, unanswered
        try {
            pause.resume();
            reply = merge.get(60, TimeUnit.SECONDS);
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }

        assertAnswerTrueAfterRecovery(reply, target, source);
    }

    /**
     * The answer is 200 (merged), a refusal that says nothing was changed (and then the source stays its own user
     * after the recovery had its chance), or one that says the outcome is unknown and how to find out.
     */
    private void assertAnswerTrueAfterRecovery(Api.Reply reply, UUID target, UUID source) {
        String detail = reply.json().path("detail").asText("");
        // the recovery's delay, and then some: a pending merge is completed or abandoned by now
        await("the recovery to complete or abandon the merge").pollDelay(RECOVERY.plusSeconds(3))
                .atMost(RECOVERY.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.user(source).status() == 200);
        boolean merged = api.user(source).json().path("uid").asText().equals(target.toString());
        if (reply.status() == 200) {
            assertThat(merged).as("answered as merged").isTrue();
        } else if (detail.contains("nothing was changed")) {
            assertThat(merged).as("answered '%s', yet the recovery merged the users", detail).isFalse();
        } else {
            assertThat(reply.status()).isEqualTo(503);
            assertThat(reply.json().path("type").asText()).endsWith("/operation-pending");
            assertThat(reply.json().path("operationId").asText()).isNotBlank();
            assertThat(detail).contains("GET /v1/users/" + target);
        }
    }

    private UUID newUser() {
        return UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
    }
}
