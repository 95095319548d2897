package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A batch update is all or none, also when its writer lost its lease before its write landed (a frozen process,
 * a coordinator that replays the batch from its batchlog later). Fences alone make a late write lose only where a
 * newer write stands: a newer change of one profile of the batch would leave the batch standing on the others. So
 * whoever takes over a lock of such a batch first completes the whole batch, as it was recorded, above every fence:
 * it stands everywhere, whatever lands when. A batch recorded by a version before completions (no rows kept) is
 * settled as then: it stands everywhere, or nowhere.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LateBatchUpdateIT {

    static final Duration LEASE = Duration.ofSeconds(2);
    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("profiles.lockLease", LEASE.toSeconds() + "s")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    @Test
    void aNewerChangeOfOneProfileCompletesTheLateBatchFirst() throws Exception {
        var a = newProfile();
        var b = newProfile();

        var batch = batchHeldAt(a, b, Step.RECORDED, false, lease -> {
            Api.assertProblem(api.put(b, etag(1), "{\"surname\": \"Орлова\", \"n\": 2}"), 412, "stale-version");
            assertThat(api.put(b, etag(2), "{\"surname\": \"Орлова\", \"n\": 2}").status())
                    .as("the newer change of B, on top of the batch").isEqualTo(200);
        });

        assertThat(batch.status()).as("the late batch: outcome unknown").isEqualTo(503);
        assertThat(api.get(b).json().path("data").path("n").asInt()).as("B: the newer change").isEqualTo(2);
        var aNow = api.get(a);
        assertThat(aNow.json().path("data").path("n").asInt()).as("A: the batch, completed").isEqualTo(1);
        assertThat(aNow.version()).isEqualTo(2);
    }

    @Test
    void aBatchOfAnOlderVersionIsLeftStandingNowhereByANewerChange() throws Exception {
        var a = newProfile();
        var b = newProfile();

        var batch = batchHeldAt(a, b, Step.RECORDED, true, lease -> assertThat(
                api.put(b, etag(1), "{\"surname\": \"Орлова\", \"n\": 2}").status()).as("the newer change of B")
                .isEqualTo(200));

        assertThat(batch.status()).as("the late batch: outcome unknown").isEqualTo(503);
        assertThat(api.get(b).json().path("data").path("n").asInt()).as("B: the newer change").isEqualTo(2);
        var aNow = api.get(a);
        assertThat(aNow.json().path("data").path("n").asInt()).as("A: the batch stands nowhere, so not on A").isZero();
        assertThat(aNow.version()).isEqualTo(1);
    }

    @Test
    void aBatchThatLandedBeforeTheTakeoverStandsEverywhere() throws Exception {
        var a = newProfile();
        var b = newProfile();

        batchHeldAt(a, b, Step.WRITTEN, false, lease -> assertThat(
                api.put(b, etag(2), "{\"surname\": \"Орлова\", \"n\": 2}").status())
                .as("a change on top of the batch").isEqualTo(200));

        assertThat(api.get(a).json().path("data").path("n").asInt()).as("A keeps the batch").isEqualTo(1);
        assertThat(api.get(a).version()).isEqualTo(2);
        assertThat(api.get(b).version()).isEqualTo(3);
    }

    /**
     * Half landed (here: one row written at the batch's fence by hand, as a coordinator that applied one mutation and
     * not yet the other would leave it), and recorded by a version before completions: the rest is on its way from the
     * batchlog, so the next writer is refused until the batch stands everywhere, and then builds on it.
     */
    @Test
    void aBatchOfAnOlderVersionHalfLandedRefusesTheNextWriterUntilItLandedWhole() throws Exception {
        var a = newProfile();
        var b = newProfile();

        batchHeldAt(a, b, Step.RECORDED, true, lease -> {
            TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                    "UPDATE profiles.profile SET version = 2, data = '{\"surname\":\"Орлова\",\"n\":1}' WHERE pid = ?", a)
                    .setQueryTimestamp(lease.fence()));
            Api.assertProblem(api.put(b, etag(1), "{\"surname\": \"Орлова\", \"n\": 2}"), 409, "locked");
            Api.assertProblem(api.put(a, etag(2), "{\"surname\": \"Орлова\", \"n\": 2}"), 409, "locked");
        });

        assertThat(api.put(b, etag(2), "{\"surname\": \"Орлова\", \"n\": 2}").status()).as("on top of the whole batch")
                .isEqualTo(200);
        assertThat(api.get(a).json().path("data").path("n").asInt()).isEqualTo(1);
    }

    /**
     * A batch update of A and B, held at the step (as a batch of a version before completions, if so) until its lease
     * ran out and {@code meanwhile} ran; then let go. Returns its answer.
     */
    private Api.Reply batchHeldAt(UUID a, UUID b, Step step, boolean ofAnOlderVersion, Consumer<Lease> meanwhile)
            throws Exception {
        var held = PROBE.pauseNext(a, step);
        var batch = CompletableFuture.supplyAsync(() -> api.batchUpdate(batchOf(a, b)));
        var lease = held.awaitReached(Duration.ofSeconds(10));
        try {
            if (ofAnOlderVersion) {
                Stores.recordedByAnOlderVersion(lease.holder(), true);
            }
            awaitLeaseRanOut(b);
            meanwhile.accept(lease);
        } finally {
            held.resume();
        }
        return batch.get(30, TimeUnit.SECONDS);
    }

    private UUID newProfile() {
        return api.create("{\"surname\": \"Орлова\", \"n\": 0}").pid();
    }

    private static String batchOf(UUID a, UUID b) {
        return "{\"updates\": [" + update(a) + ", " + update(b) + "]}";
    }

    private static String update(UUID pid) {
        return "{\"pid\": \"" + pid + "\", \"version\": 1, \"data\": {\"surname\": \"Орлова\", \"n\": 1}}";
    }

    private static void awaitLeaseRanOut(UUID pid) {
        await("the paused batch's lease to run out").atMost(LEASE.multipliedBy(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
    }
}
