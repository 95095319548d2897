package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A writer whose lock rows vanish while it writes (a PostgreSQL failover that lost them): another request takes the
 * same profile and writes the same next version. Both cannot be "done": the one whose locks were no longer its own
 * when it released them must not answer 200, whatever its own clock says of its lease.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LockRowsLostIT {

    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void aWriterWhoseLockRowsWereLostMeanwhileDoesNotAnswerDone() throws Exception {
        var api = new Api(APP.getLocalPort());
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var pause = PROBE.pauseNext(pid, Step.RECORDED);

        var first = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Первая\"}"));
        pause.awaitReached(Duration.ofSeconds(10));
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("DELETE FROM entity_lock WHERE entity = ?")) {
            statement.setString(1, "profile:" + pid);
            assertThat(statement.executeUpdate()).as("the lock rows lost").isEqualTo(1);
        }
        var second = api.put(pid, etag(1), "{\"surname\": \"Вторая\"}");
        pause.resume();
        var firstReply = first.get(30, TimeUnit.SECONDS);

        // the second writer took the free lock, and completed the first's recorded change before it read
        Api.assertProblem(second, 412, "stale-version");
        assertThat(firstReply.status()).as("the first cannot tell whether its locks lasted: not 'done'").isEqualTo(503);
        assertThat(firstReply.json().path("detail").asText()).contains("may or may not have been applied");
        var read = api.get(pid);
        assertThat(read.version()).isEqualTo(2);
        assertThat(read.json().path("data").path("surname").asText()).isEqualTo("Первая");
    }
}
