package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
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
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A change recorded and not confirmed by Cassandra may still land, after the next holder of its locks has read what
 * it replaces (its writer froze past its lease; a coordinator replays its batch from a batchlog minutes later). Were
 * it fenced off, a reader could see it land and then see a change decided on the version before it undo it (the fault
 * suite's quick runs 20261216, -17 and -22). So the next holder completes it first: it writes the change's rows again,
 * as the change recorded them, above every fence, and then reads. The change stands whatever the order its writes
 * land in, and the next change is decided on it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UnconfirmedChangeCompletedIT {

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

    @AfterEach
    void disarm() {
        PROBE.disarm();
    }

    @Test
    void theNextChangeIsDecidedOnAnUnconfirmedPutThatMayStillLand() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var late = PROBE.pauseNext(pid, Step.RECORDED);
        var first = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Первая\"}"));
        late.awaitReached(Duration.ofSeconds(10));
        var next = PROBE.pauseNext(pid, Step.RECORDED); // where the next change would be, had it read version 1
        Api.Reply second;
        try {
            awaitLeaseRanOut(pid);
            var sent = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Вторая\"}"));
            await("the next change's answer, or it recorded").atMost(Duration.ofSeconds(10))
                    .until(() -> sent.isDone() || next.reached());
            assertThat(next.reached()).as("the next change read version 1 and went on as if the first put would never"
                    + " land").isFalse();
            second = sent.get(10, TimeUnit.SECONDS);
        } finally {
            PROBE.disarm();
            next.resume();
            late.resume();
        }

        Api.assertProblem(second, 412, "stale-version");
        var read = api.get(pid);
        assertThat(read.version()).as("the first put, completed by the next holder").isEqualTo(2);
        assertThat(read.json().path("data").path("surname").asText()).isEqualTo("Первая");
        assertThat(first.get(30, TimeUnit.SECONDS).status()).as("its own writer lost its lease: outcome unknown")
                .isEqualTo(503);
        var after = api.get(pid);
        assertThat(after.version()).as("its late write changes nothing").isEqualTo(2);
        assertThat(after.json().path("data").path("surname").asText()).isEqualTo("Первая");
        assertThat(Stores.profileWriter(pid)).as("the version is the first put's, not its completer's")
                .isEqualTo(requestId(first.get()));
    }

    /**
     * A change Cassandra surely refused changed nothing, unless somebody completed it meanwhile: once its lease ran out,
     * the next holder may have. Its answer says "nothing was changed" only when what completes it was gone while its
     * locks were still its own.
     */
    @Test
    void aPutRefusedByCassandraAfterTheNextHolderCompletedItDoesNotSayNothingChanged() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var late = PROBE.pauseNext(pid, Step.RECORDED);
        var first = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Первая\"}"));
        late.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        try {
            awaitLeaseRanOut(pid);
            assertThat(api.put(pid, etag(2), "{\"surname\": \"Вторая\"}").status())
                    .as("the next change, on top of the first put completed").isEqualTo(200);
        } finally {
            try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
                late.resume();
                reply = first.get(60, TimeUnit.SECONDS);
            }
        }

        Api.assertProblem(reply, 503, "cassandra-unavailable");
        assertThat(reply.json().path("detail").asText()).as("its version 2 stood, completed by the next holder")
                .contains("may or may not");
        var read = readOnceCassandraIsBack(pid);
        assertThat(read.version()).isEqualTo(3);
        assertThat(read.json().path("data").path("surname").asText()).isEqualTo("Вторая");
    }

    /** Refused while its locks were its own, nobody completed it: nothing was changed, and nobody ever will. */
    @Test
    void aPutRefusedByCassandraWithinItsLeaseChangedNothing() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        var held = PROBE.pauseNext(pid, Step.RECORDED);
        var first = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Первая\"}"));
        held.awaitReached(Duration.ofSeconds(10));
        Api.Reply reply;
        try (var outage = TestStack.stack().outage(Service.CASSANDRA)) {
            held.resume();
            reply = first.get(60, TimeUnit.SECONDS);
        }

        Api.assertProblem(reply, 503, "cassandra-unavailable");
        assertThat(reply.json().path("detail").asText()).contains("nothing was changed");
        assertThat(readOnceCassandraIsBack(pid).version()).isEqualTo(1);
        assertThat(api.put(pid, etag(1), "{\"surname\": \"Вторая\"}").status()).as("nothing to complete first")
                .isEqualTo(200);
        assertThat(api.get(pid).json().path("data").path("surname").asText()).isEqualTo("Вторая");
    }

    /** The service reaches Cassandra again some seconds after it is back: the first read it answers. */
    private Api.Reply readOnceCassandraIsBack(UUID pid) {
        return await("the service to read from Cassandra again").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).until(() -> api.get(pid), read -> read.status() == 200);
    }

    private static UUID requestId(Api.Reply reply) {
        return UUID.fromString(reply.headers().firstValue("Request-Id").orElseThrow());
    }


    private static void awaitLeaseRanOut(UUID pid) {
        await("the paused change's lease to run out").atMost(LEASE.multipliedBy(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
    }
}
