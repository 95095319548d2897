package io.profilestore.change;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Many writers on one profile, and a writer paused past its lock: no update is lost, none is half applied. */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConcurrentChangesIT {

    static final Duration LEASE = Duration.ofSeconds(2);

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("profiles.lockLease", LEASE.toSeconds() + "s")));

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    @Test
    void aStormOf32ReadModifyWriteClientsLosesNoUpdate() throws Exception {
        var pid = api.create("{\"counter\": 0}").pid();

        var storm = Storm.run(List.of(api), pid, 32, 128, Duration.ofMinutes(3));

        var last = api.get(pid);
        assertThat(storm.accepted()).isGreaterThanOrEqualTo(128);
        assertThat(last.json().path("data").path("counter").asLong()).isEqualTo(storm.accepted());
        assertThat(last.version()).isEqualTo(storm.accepted() + 1);
        assertThat(storm.versions()).as("every accepted write got its own version, none skipped")
                .containsExactlyElementsOf(LongStream.rangeClosed(2, storm.accepted() + 1).boxed().toList());
        assertThat(Stores.outboxVersions(pid)).as("one outbox record per accepted change")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, storm.accepted() + 1).boxed().toList());
        assertThat(storm.refused()).as("the others were refused with 409 or 412, never failed").isPositive();
        var history = Stores.historyOf(pid);
        assertThat(history.keySet()).as("the history keeps every version, newest first")
                .containsExactlyElementsOf(LongStream.iterate(storm.accepted() + 1, v -> v >= 1, v -> v - 1).boxed().toList());
        history.forEach((version, data) -> assertThat(data).as("version %d", version)
                .isEqualTo("{\"counter\":" + (version - 1) + "}"));
    }

    /**
     * A recorded its change and froze before writing it: the next writer completes A's change first (it may still
     * land), so B's If-Match 1 names the version before, and B builds on A's. A's own late write changes nothing.
     */
    @Test
    void aWriterPausedPastItsLockBeforeWritingIsCompletedByTheNextWriter() throws Exception {
        var pid = api.create("{\"who\": \"nobody\"}").pid();
        var pause = ProbedApplication.PROBE.pauseNext(pid, PausingProbe.Step.RECORDED);
        var writerA = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"who\": \"A\"}"));
        var leaseOfA = pause.awaitReached(Duration.ofSeconds(10));

        assertProblem(secondWriterAfterTheLease(pid, pause), 412, "stale-version");
        var writerB = api.put(pid, etag(2), "{\"who\": \"B\"}");
        var replyA = writerA.get(30, TimeUnit.SECONDS);

        assertThat(writerB.version()).as(writerB.body()).isEqualTo(3);
        assertProblem(replyA, 503, "lease-lost");
        var last = api.get(pid);
        assertThat(last.json().path("data").path("who").asText()).as("A wrote after B, with an older fence").isEqualTo("B");
        assertThat(last.version()).isEqualTo(3);
        assertThat(writerB.json().path("updatedAt").asText()).isEqualTo(last.json().path("updatedAt").asText());
        assertThat(leaseOfA.fence()).isLessThan(Stores.fenceOf(pid));
        assertThat(Stores.outboxVersions(pid)).as("A's version 2 recorded, and again when completed").contains(2L, 3L);
        assertThat(Stores.historyOf(pid)).as("A's late write changes the history no more than the profile")
                .containsExactly(entry(3L, "{\"who\":\"B\"}"), entry(2L, "{\"who\":\"A\"}"),
                        entry(1L, "{\"who\":\"nobody\"}"));
    }

    @Test
    void aWriterPausedPastItsLockBeforeReadingFindsTheNewVersion() throws Exception {
        var pid = api.create("{\"who\": \"nobody\"}").pid();
        var pause = ProbedApplication.PROBE.pauseNext(pid, PausingProbe.Step.LOCKED);
        var writerA = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"who\": \"A\"}"));
        pause.awaitReached(Duration.ofSeconds(10));

        var writerB = secondWriterAfterTheLease(pid, pause);

        assertProblem(writerA.get(30, TimeUnit.SECONDS), 412, "stale-version");
        assertThat(writerB.status()).as(writerB.body()).isEqualTo(200);
        assertThat(writerB.version()).isEqualTo(2);
        assertThat(api.get(pid).json().path("data").path("who").asText()).isEqualTo("B");
        assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L);
        assertThat(Stores.historyOf(pid)).as("the refused A made no version")
                .containsExactly(entry(2L, "{\"who\":\"B\"}"), entry(1L, "{\"who\":\"nobody\"}"));
    }

    /**
     * Writer B at If-Match 1, while A is paused holding the lock: refused at once with 409, then its first answer once
     * A's lease ran out. A is resumed in any case, so that a failure here does not leave it paused past the test.
     */
    Api.Reply secondWriterAfterTheLease(UUID pid, PausingProbe.Pause pausedA) {
        try {
            assertProblem(api.put(pid, etag(1), "{\"who\": \"B\"}"), 409, "locked");
            return await("A's lock to run out and B's change to be answered").atMost(LEASE.multipliedBy(5))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> api.put(pid, etag(1), "{\"who\": \"B\"}"), reply -> reply.status() != 409);
        } finally {
            pausedA.resume();
        }
    }

    /** Clients doing read-modify-write on one counter, until enough writes were accepted. */
    record Storm(long accepted, long refused, List<Long> versions) {

        static Storm run(List<Api> instances, UUID pid, int clients, int target, Duration limit) throws Exception {
            var accepted = new AtomicInteger();
            var refused = new AtomicInteger();
            var versions = new ConcurrentLinkedQueue<Long>();
            var failures = new ConcurrentLinkedQueue<String>();
            long deadline = System.nanoTime() + limit.toNanos();
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                var runs = new ArrayList<CompletableFuture<Void>>();
                for (int c = 0; c < clients; c++) {
                    var client = instances.get(c % instances.size());
                    runs.add(CompletableFuture.runAsync(() -> {
                        while (accepted.get() < target && failures.isEmpty() && System.nanoTime() < deadline) {
                            var read = client.get(pid);
                            long counter = read.json().path("data").path("counter").asLong();
                            var write = client.put(pid, read.etag(), "{\"counter\": " + (counter + 1) + "}");
                            switch (write.status()) {
                                case 200 -> {
                                    versions.add(write.version());
                                    accepted.incrementAndGet();
                                }
                                case 409, 412 -> {
                                    refused.incrementAndGet();
                                    // like a real client, back off a little before retrying a contended profile
                                    LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(5_000_000));
                                }
                                default -> failures.add(write.status() + " " + write.body());
                            }
                        }
                    }, pool));
                }
                CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).get(limit.toSeconds() + 30, TimeUnit.SECONDS);
            } finally {
                pool.shutdownNow();
            }
            assertThat(failures).as("no write may fail otherwise").isEmpty();
            return new Storm(accepted.get(), refused.get(), versions.stream().sorted().toList());
        }
    }
}
