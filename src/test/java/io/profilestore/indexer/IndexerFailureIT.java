package io.profilestore.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.search.NameNormalizer;
import io.profilestore.events.ChangeEvent;
import io.profilestore.events.EventTopology;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import io.profilestore.wiring.Wiring;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The indexer when something goes wrong inside it: a failure nobody foresaw must not stall it silently, and one
 * profile it cannot read must not take the others of its batch down with it. Its own indexer, on the real queue,
 * beside an API that runs none.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IndexerFailureIT {

    static final Duration INDEXED_WITHIN = Duration.ofSeconds(20);

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** Fails the next reads of Cassandra (or all reads for a while) with an exception no catch expects. */
    static final class FailingDocuments extends ProfileDocuments {
        final AtomicInteger failures = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        volatile long failUntilNanos = System.nanoTime();

        FailingDocuments(Wiring parts) {
            super(parts.profiles(), NameNormalizer.standard(), Api.JSON, parts.numberKeys());
        }

        @Override
        public Current current(Collection<UUID> pids) {
            calls.incrementAndGet();
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0 || System.nanoTime() - failUntilNanos < 0) {
                throw new IllegalStateException("a failure nobody foresaw");
            }
            return super.current(pids);
        }
    }

    Api api;
    FailingDocuments documents;
    Indexer indexer;

    @BeforeEach
    void ownIndexer() throws Exception {
        api = new Api(APP.getLocalPort());
        var parts = new Wiring(TestStack.configuration(), TestStack.backends(), new MetricRegistry(), Api.JSON);
        documents = new FailingDocuments(parts);
        indexer = new Indexer(TestStack.backends().rabbitmq(), documents, parts.index(), Api.JSON,
                TestStack.configuration().indexer, new MetricRegistry());
        indexer.start();
    }

    @AfterEach
    void stopIt() throws Exception {
        indexer.stop();
    }

    @Test
    void anUnexpectedFailureReturnsTheBatchToTheQueueShowsInTheHealthAndTheChangeIsIndexedAfter() {
        documents.failures.set(3);

        var pid = api.create("{\"surname\": \"Орлова\"}").pid();

        await("the indexer to report that it fails").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> indexer.failure(Duration.ZERO) != null);
        SearchApi.awaitIndexed(pid, 1);
        assertThat(documents.failures).as("every planned failure happened").hasValue(0);
        await("the indexer to report that it works again").atMost(Duration.ofSeconds(10))
                .until(() -> indexer.failure(Duration.ZERO) == null);
    }

    @Test
    void aFailureThatLastsSecondsDoesNotUseUpTheMessagesDeliveriesAndTheChangeIsIndexedAfter() throws Exception {
        // the queue dead-letters a message after 20 deliveries: requeued at once, a failure of three seconds
        // would use them all up in moments, and the change would never reach the index
        documents.failUntilNanos = System.nanoTime() + Duration.ofSeconds(3).toNanos();

        var pid = api.create("{\"surname\": \"Орлова\"}").pid();

        SearchApi.awaitIndexed(pid, 1, INDEXED_WITHIN.plusSeconds(30));
        assertThat(documents.calls.get()).as("the indexer paused between attempts").isLessThan(20);
    }

    @Test
    void aProfileWhoseDataIsUnreadableIsDeadLetteredAloneAndTheRestOfItsBatchIsIndexed() throws Exception {
        var good = api.create("{\"surname\": \"Орлова\"}").pid();
        SearchApi.awaitIndexed(good, 1);
        var bad = UUID.randomUUID();
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "INSERT INTO profiles.profile (pid, uid, version, data, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)",
                bad, UUID.randomUUID(), "{not json", Instant.now(), Instant.now()));
        try {
            publishBothAndCheck(good, bad);
        } finally {
            // the shared stack's other tests (a reindex, a reconcile) need not meet it
            TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                    "DELETE FROM profiles.profile WHERE pid = ?", bad));
        }
    }

    private void publishBothAndCheck(UUID good, UUID bad) throws Exception {
        // a change of the good profile that only the events below announce (no outbox record of its own)
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "UPDATE profiles.profile SET version = 2, data = ? WHERE pid = ?", "{\"surname\": \"Соколова\"}", good)
                .setQueryTimestamp(Math.addExact(Math.multiplyExact(System.currentTimeMillis(), 1000L), 1_000_000L)));

        try (var channel = TestStack.backends().rabbitmq().createChannel()) {
            long deadBefore = channel.queueDeclarePassive(EventTopology.DEAD_QUEUE).getMessageCount();
            // both in one batch: back to back, well within the indexer's linger
            for (var pid : new UUID[] {bad, good}) {
                channel.basicPublish(EventTopology.EXCHANGE, EventTopology.ROUTING_KEY, null,
                        Api.JSON.writeValueAsBytes(new ChangeEvent("profile", pid, 1, null, Instant.now())));
            }

            SearchApi.awaitIndexed(good, 2);
            await("the unreadable profile's message to be dead-lettered").atMost(INDEXED_WITHIN)
                    .until(() -> channel.queueDeclarePassive(EventTopology.DEAD_QUEUE).getMessageCount() == deadBefore + 1);
        }
        assertThat(SearchApi.indexedVersion(bad)).isEqualTo(-1);
    }
}
