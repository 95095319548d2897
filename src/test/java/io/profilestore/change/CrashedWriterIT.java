package io.profilestore.change;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An API instance killed in the middle of a batch update (another process, really killed): its pids are locked
 * only until its lease runs out, and the batch shows whole or not at all.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CrashedWriterIT {

    static final Duration LEASE = Duration.ofSeconds(3);

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    Api api;
    List<UUID> pids;

    @BeforeEach
    void tenProfiles() {
        api = new Api(APP.getLocalPort());
        pids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            pids.add(api.create("{\"batch\": \"none\"}").pid());
        }
    }

    static String batch(List<UUID> pids, long version, String marker) {
        return pids.stream()
                .map(pid -> "{\"pid\": \"" + pid + "\", \"version\": " + version + ", \"data\": {\"batch\": \"" + marker + "\"}}")
                .collect(Collectors.joining(", ", "{\"updates\": [", "]}"));
    }

    /** Kills an instance while it holds the batch at the given step; returns when it is dead. */
    void crashDuringBatch(String step) throws Exception {
        try (var doomed = ServiceProcess.start(null, Map.of(
                "PROFILE_STORE_TEST_HOLD_AT", step,
                "PROFILE_STORE_LOCK_LEASE", LEASE.toSeconds() + "s"))) {
            CompletableFuture.runAsync(() -> doomed.api().batchUpdate(batch(pids, 1, "doomed")));
            assertThat(doomed.awaitLine("HELD " + step, Duration.ofSeconds(30))).contains(pids.get(0).toString());
            doomed.kill();
        }
    }

    /**
     * Killed after recording, before writing: the next writer, once the dead instance's locks ran out, completes its
     * batch first (it may still land, were it sent), and is answered on top of it.
     */
    @Test
    void killedAfterRecordingBeforeWritingItIsCompletedByTheNextWriterWithinItsLease() throws Exception {
        crashDuringBatch("recorded");
        long killed = System.nanoTime();

        assertProblem(api.batchUpdate(batch(pids, 1, "after")), 409, "locked");
        var reply = await("the dead instance's locks to run out").atMost(LEASE.plusSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.batchUpdate(batch(pids, 1, "after")), r -> r.status() != 409);

        assertProblem(reply, 412, "stale-version");
        assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(LEASE.plusSeconds(3));
        for (var pid : pids) {
            var read = api.get(pid);
            assertThat(read.version()).as("the dead instance's batch, completed").isEqualTo(2);
            assertThat(read.json().path("data").path("batch").asText()).isEqualTo("doomed");
            // recorded by the dead instance, and again by its completer: the indexer reads what stands
            assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L, 2L);
        }
        var onTop = api.batchUpdate(batch(pids, 2, "after"));
        assertThat(onTop.status()).as(onTop.body()).isEqualTo(200);
    }

    @Test
    void killedAfterWritingBeforeReleasingTheWholeBatchStandsAndThePidsFreeWithinItsLease() throws Exception {
        crashDuringBatch("written");

        for (var pid : pids) {
            var read = api.get(pid);
            assertThat(read.version()).as("every profile of the batch, none missing").isEqualTo(2);
            assertThat(read.json().path("data").path("batch").asText()).isEqualTo("doomed");
        }
        var reply = await("the dead instance's locks to run out").atMost(LEASE.plusSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.batchUpdate(batch(pids, 2, "after")), r -> r.status() != 409);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(pids.stream().map(pid -> api.get(pid).json().path("data").path("batch").asText()).distinct())
                .containsExactly("after");
    }
}
