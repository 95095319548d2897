package io.profilestore.search;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.Gauge;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A change's event reaches the indexer before its Cassandra write lands (the writer paused between recording the
 * change and writing it: a GC pause, a retried write). The indexer must not index the old row and forget the
 * event: it waits for the write, or for the writer's lease to run out, and the index ends equal to Cassandra.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LateWriteIndexingIT {

    static final Duration LEASE = Duration.ofSeconds(3);
    static final PausingProbe PROBE = ProbedApplication.PROBE;

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("profiles.lockLease", LEASE.toSeconds() + "s"),
                    ConfigOverride.config("profiles.writeAttempts", "2"),
                    ConfigOverride.config("profiles.unknownOutcomeRechecks", "4s")));

    Api api;
    String phone;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
        phone = SearchApi.uniquePhone();
    }

    @Test
    void anUpdateIsIndexedWhenItsWriteLandsAfterItsEvent() throws Exception {
        var pid = created("Орлова");
        var pause = PROBE.pauseNext(pid, Step.RECORDED);
        long indexed = indexedCount();

        var put = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), document("Соколова")));
        pause.awaitReached(Duration.ofSeconds(10));
        awaitTheIndexerSawTheEventOf(pid, indexed);
        pause.resume();

        assertThat(put.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        SearchApi.awaitIndexed(pid, 2);
        assertThat(new SearchApi(api).pids(Map.of("surname", "Соколова", "phone", phone))).containsExactly(pid);
    }

    @Test
    void aCreateIsFoundWhenItsWriteLandsAfterItsEvent() throws Exception {
        var first = api.create(document("Орлова"));
        var uid = first.json().path("uid").asText();
        var pause = PROBE.pauseNextOf("user:" + uid, Step.RECORDED);
        long indexed = indexedCount();

        var create = CompletableFuture.supplyAsync(() -> api.createFor(UUID.fromString(uid), document("Орлова")));
        var lease = pause.awaitReached(Duration.ofSeconds(10));
        var pid = lease.entities().stream().filter(e -> e.startsWith("profile:")).map(e -> UUID.fromString(e.substring(8)))
                .findFirst().orElseThrow();
        awaitTheIndexerSawTheEventOf(pid, indexed);
        pause.resume();

        assertThat(create.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        SearchApi.awaitIndexed(pid, 1);
    }

    @Test
    void anEraseIsRemovedWhenItsWriteLandsAfterItsEvent() throws Exception {
        var pid = created("Орлова");
        var pause = PROBE.pauseNext(pid, Step.RECORDED);
        long indexed = indexedCount();

        var erase = CompletableFuture.supplyAsync(() -> api.delete(pid, etag(1)));
        pause.awaitReached(Duration.ofSeconds(10));
        awaitTheIndexerSawTheEventOf(pid, indexed);
        pause.resume();

        assertThat(erase.get(30, TimeUnit.SECONDS).status()).isEqualTo(204);
        SearchApi.awaitIndexed(pid, -1);
    }

    @Test
    void aWriteThatLandsAfterItsLeaseRanOutIsIndexedToo() throws Exception {
        var pid = created("Орлова");
        var pause = PROBE.pauseNext(pid, Step.RECORDED);
        long indexed = indexedCount();

        var put = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), document("Соколова")));
        pause.awaitReached(Duration.ofSeconds(10));
        awaitTheIndexerSawTheEventOf(pid, indexed);
        // the writer stays paused past its lease: the indexer stops waiting and indexes what Cassandra holds
        await("the writer's lease to run out").atMost(LEASE.multipliedBy(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> Stores.leaseRanOut("profile:" + pid));
        await("the indexer to stop waiting for the write").atMost(Duration.ofSeconds(15))
                .until(() -> waiting() == 0 && indexedCount() > indexed);
        pause.resume();

        var reply = put.get(30, TimeUnit.SECONDS);
        assertThat(reply.status()).as("slower than its lease, but no one took the lock meanwhile: the write stands")
                .isEqualTo(200);
        assertThat(api.get(pid).version()).isEqualTo(2);
        SearchApi.awaitIndexed(pid, 2);
    }

    @Test
    void aWriteWhoseOutcomeIsUnknownIsAnnouncedAgainLaterAndIndexedIfItLanded() throws Exception {
        var pid = created("Орлова");
        var pause = PROBE.pauseNext(pid, Step.RECORDED);

        // an erase is a logged batch (the row and its user's link): Cassandra hangs while it is sent, so it is not
        // confirmed, and it lands once Cassandra goes on
        var reply = withCassandraHungAfter(pause, CompletableFuture.supplyAsync(() -> api.delete(pid, etag(1))));
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().path("detail").asText()).contains("may or may not have been applied");
        assertThat(Stores.outboxVersions(pid)).as("the change is announced again for later").hasSizeGreaterThan(2);

        await("the write to land").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> api.get(pid).status() == 404);
        SearchApi.awaitIndexed(pid, -1);
    }

    @Test
    void aPutWhoseLinkWasNotConfirmedChangedNothingAndSaysSo() throws Exception {
        var pid = created("Орлова");
        var pause = PROBE.pauseNext(pid, Step.RECORDED);

        // a put writes its row's link first and the row only once the link is confirmed: a hung Cassandra stops it
        // at the link, and its row is never sent (the link may land later: check-tables removes it if it is stray)
        var reply = withCassandraHungAfter(pause,
                CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), document("Соколова"))));
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.json().path("detail").asText()).contains("nothing was changed");
        assertThat(Stores.outboxVersions(pid)).as("nothing to announce again").hasSize(2);

        await("Cassandra to answer again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> api.get(pid).status() == 200);
        var after = api.get(pid);
        assertThat(after.version()).isEqualTo(1);
        assertThat(after.json().path("data").path("surname").asText()).isEqualTo("Орлова");
        assertThat(api.put(pid, etag(1), document("Соколова")).status()).as("so the put can be sent again").isEqualTo(200);
        SearchApi.awaitIndexed(pid, 2);
    }

    /** Lets the paused change go on while Cassandra hangs, and waits for its answer. */
    private static Api.Reply withCassandraHungAfter(PausingProbe.Pause pause, CompletableFuture<Api.Reply> change)
            throws Exception {
        pause.awaitReached(Duration.ofSeconds(10));
        TestStack.stack().pause(Service.CASSANDRA);
        try {
            pause.resume();
            return change.get(60, TimeUnit.SECONDS);
        } finally {
            TestStack.stack().resume(Service.CASSANDRA);
        }
    }

    private UUID created(String surname) {
        var reply = api.create(document(surname));
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        SearchApi.awaitIndexed(reply.pid(), 1);
        return reply.pid();
    }

    private String document(String surname) {
        return "{\"surname\": \"" + surname + "\", \"firstName\": \"Анна\", \"phones\": [\"" + phone + "\"]}";
    }

    private static long indexedCount() {
        return APP.getEnvironment().metrics().meter("indexer.indexed").getCount();
    }

    /**
     * The change's event has been relayed and taken by the indexer while its write waits: either indexed
     * (acknowledged) or held by the indexer until the write lands.
     */
    private static void awaitTheIndexerSawTheEventOf(UUID pid, long indexedBefore) {
        await("the change's event to be relayed").atMost(Duration.ofSeconds(10))
                .until(() -> Stores.unpublished(List.of(pid)) == 0);
        await("the indexer to take the event").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> indexedCount() > indexedBefore || waiting() > 0);
    }

    @SuppressWarnings("unchecked")
    private static long waiting() {
        var gauge = (Gauge<Long>) APP.getEnvironment().metrics().getGauges().get("indexer.waiting");
        return gauge == null ? 0 : gauge.getValue();
    }
}
