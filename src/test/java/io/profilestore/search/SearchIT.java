package io.profilestore.search;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.events.ChangeEvent;
import io.profilestore.events.EventTopology;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import io.profilestore.wiring.Wiring;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** From a write to a search hit, through the outbox, RabbitMQ, the indexer and Elasticsearch. */
@ExtendWith(DropwizardExtensionsSupport.class)
class SearchIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    /**
     * How soon a running service's new profile must be found (a refresh every half second once indexed; this leaves
     * room for a loaded CI machine). Measured once the service has indexed a change: its first pays for the JVM's cold
     * paths, which the other tests' waits ({@link SearchApi#INDEXING_BOUND}) allow for.
     */
    static final Duration SEARCHABLE_WITHIN = Duration.ofSeconds(10);

    Api api;
    SearchApi search;
    String phone;

    @BeforeEach
    void clients() {
        api = new Api(APP.getLocalPort());
        search = new SearchApi(api);
        phone = SearchApi.uniquePhone();
    }

    UUID create(String surname, String firstName) {
        var reply = api.create("{\"surname\": \"" + surname + "\", \"firstName\": \"" + firstName
                + "\", \"phones\": [\"" + phone + "\"], \"birthDate\": \"1985-03-07\","
                + " \"documents\": [{\"type\": \"passport\", \"number\": \"4510 " + phone.replaceAll("\\D", "").substring(5) + "\"}]}");
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        return reply.pid();
    }

    @Test
    void aNewProfileIsFoundByEverySpellingOfItsNameWithinTheMeasuredBound() {
        long warming = System.nanoTime();
        SearchApi.awaitIndexed(create("Кузнецов", "Олег"), 1); // the service warm
        // not bounded but by the wait: a JVM's first change pays for its cold paths (SearchApi.INDEXING_BOUND)
        System.out.println("the service's first change, write to indexed: " + (System.nanoTime() - warming) / 1_000_000 + " ms");
        long started = System.nanoTime();
        var pid = create("Щербакова", "Анна");
        try {
            await("the new profile to be found by its surname").atMost(SEARCHABLE_WITHIN).pollInterval(Duration.ofMillis(20))
                    .until(() -> search.pids(Map.of("surname", "Щербакова", "phone", phone)).contains(pid));
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; " + SearchApi.whereTheChangeIs(SearchApi.SHARED_ALIAS, pid), e);
        }
        var searchable = Duration.ofNanos(System.nanoTime() - started);
        System.out.println("write to search hit: " + searchable.toMillis() + " ms");
        assertThat(searchable).isLessThan(SEARCHABLE_WITHIN);

        for (String spelling : List.of("shcherb", "Щерб", "ЩЕРБАКОВА", "Shherbakova", "Scherbakova", "Oth,frjdf")) {
            assertThat(search.pids(Map.of("surname", spelling, "phone", phone))).as(spelling).containsExactly(pid);
        }
        assertThat(search.pids(Map.of("surname", "Щерб", "firstName", "anna", "phone", phone))).containsExactly(pid);
        assertThat(search.pids(Map.of("surname", "Петров", "phone", phone))).isEmpty();
    }

    @Test
    void numbersMatchExactlyWhateverTheFormatting() {
        var pid = create("Яковлева", "Ольга");
        SearchApi.awaitIndexed(pid, 1);
        String digits = phone.replaceAll("\\D", "");

        for (String spelling : List.of("iakovl", "yakovl", "Яковл")) {
            assertThat(search.pids(Map.of("surname", spelling, "phone", phone))).as(spelling).containsExactly(pid);
        }
        assertThat(search.pids(Map.of("phone", digits))).containsExactly(pid);
        assertThat(search.pids(Map.of("phone", "8" + digits.substring(1)))).containsExactly(pid);
        assertThat(search.pids(Map.of("phone", digits.substring(1)))).as("without the country code").containsExactly(pid);
        assertThat(search.pids(Map.of("document", "4510-" + digits.substring(5), "birthDate", "07.03.1985"))).containsExactly(pid);
        assertThat(search.pids(Map.of("phone", digits, "birthDate", "1985-03-08"))).isEmpty();
        assertThat(search.pids(Map.of("phone", digits.substring(0, 10)))).as("numbers are not prefixes").isEmpty();
    }

    @Test
    void aSurnameChangeMovesTheProfileAndAnEraseRemovesIt() {
        var pid = create("Семёнова", "Мария");
        SearchApi.awaitIndexed(pid, 1);
        assertThat(search.pids(Map.of("surname", "Семенова", "phone", phone))).containsExactly(pid);

        assertThat(api.patch(pid, etag(1), "{\"surname\": \"Королёва\"}").status()).isEqualTo(200);
        SearchApi.awaitIndexed(pid, 2);
        assertThat(search.pids(Map.of("surname", "Семен", "phone", phone))).isEmpty();
        assertThat(search.pids(Map.of("surname", "Korolyova", "phone", phone))).containsExactly(pid);

        assertThat(api.delete(pid, etag(2)).status()).isEqualTo(204);
        SearchApi.awaitIndexed(pid, -1);
        assertThat(search.pids(Map.of("phone", phone))).isEmpty();
    }

    /**
     * A replayed message cannot prove the external-version guard: the indexer re-reads Cassandra, so it writes the
     * current row whatever the message says. This one does not depend on the guard; the next test does.
     */
    @Test
    void aReplayedOldMessageLeavesTheNewerDocument() throws Exception {
        var pid = create("Фёдорова", "Вера");
        assertThat(api.patch(pid, etag(1), "{\"step\": 2}").status()).isEqualTo(200);
        assertThat(api.patch(pid, etag(2), "{\"firstName\": \"Вероника\", \"step\": 3}").status()).isEqualTo(200);
        SearchApi.awaitIndexed(pid, 3);
        Meter indexed = APP.getEnvironment().metrics().meter("indexer.indexed");
        long before = indexed.getCount();

        try (var channel = TestStack.backends().rabbitmq().createChannel()) {
            var old = new ChangeEvent("profile", pid, 1, null, Instant.now().minusSeconds(3600));
            channel.basicPublish(EventTopology.EXCHANGE, EventTopology.ROUTING_KEY, null, Api.JSON.writeValueAsBytes(old));
        }
        await("the indexer to index the replayed message").atMost(SearchApi.INDEXING_BOUND).until(() -> indexed.getCount() > before);

        assertThat(SearchApi.indexedVersion(pid)).isEqualTo(3);
        assertThat(search.pids(Map.of("firstName", "Veronika", "phone", phone))).containsExactly(pid);
    }

    @Test
    void aStaleWriteThroughTheIndexersWritePathIsRefusedAndLeavesTheNewerDocument() throws Exception {
        var parts = new Wiring(TestStack.configuration(), TestStack.backends(), new MetricRegistry(), Api.JSON);
        var pid = create("Фёдорова", "Вера");
        SearchApi.awaitIndexed(pid, 1);
        // what a slow indexer (or a reindex) read of version 1, before the profile changed under it
        var stale = parts.documents().current(List.of(pid)).documents().get(pid);
        assertThat(stale.document().version()).isEqualTo(1);
        assertThat(api.patch(pid, etag(1), "{\"firstName\": \"Вероника\"}").status()).isEqualTo(200);
        SearchApi.awaitIndexed(pid, 2);
        var newer = parts.index().versionsOf(List.of(pid)).get(pid);
        assertThat(newer.external()).as("the newer document's external version").isGreaterThan(stale.written());

        // the stale read arrives after the newer one, as a put and as a removal, through the indexer's own bulk
        var writes = new ArrayList<SearchIndex.Write>();
        for (String target : parts.index().writeTargets()) {
            writes.add(new SearchIndex.Put(target, pid, stale.document(), stale.written()));
            writes.add(new SearchIndex.Remove(target, pid, stale.written()));
        }
        var results = parts.index().bulk(writes);
        TestStack.backends().elasticsearch().indices().refresh(r -> r.index(parts.index().alias()));

        assertThat(results).as("every stale write refused by Elasticsearch").hasSameSizeAs(writes)
                .extracting(SearchIndex.Result::outcome).containsOnly(SearchIndex.Outcome.STALE);
        assertThat(parts.index().versionsOf(List.of(pid))).as("the newer document, untouched").containsEntry(pid, newer);
        assertThat(SearchApi.indexedVersion(pid)).isEqualTo(2);
        assertThat(search.pids(Map.of("firstName", "Veronika", "phone", phone))).containsExactly(pid);
    }

    @Test
    void aPoisonMessageIsDeadLetteredAndCountedAndTheMetricsAreThere() throws Exception {
        var metrics = APP.getEnvironment().metrics();
        long before = metrics.meter("indexer.dead-lettered").getCount();
        long deadBefore;
        try (var channel = TestStack.backends().rabbitmq().createChannel()) {
            deadBefore = channel.queueDeclarePassive(EventTopology.DEAD_QUEUE).getMessageCount();
            channel.basicPublish(EventTopology.EXCHANGE, EventTopology.ROUTING_KEY, null,
                    "{not json".getBytes(StandardCharsets.UTF_8));

            await("the poison message to be counted").atMost(SearchApi.INDEXING_BOUND)
                    .until(() -> metrics.meter("indexer.dead-lettered").getCount() > before);
            await("the poison message to reach the dead-letter queue").atMost(SearchApi.INDEXING_BOUND).until(() ->
                    channel.queueDeclarePassive(EventTopology.DEAD_QUEUE).getMessageCount() > deadBefore);
        }
        var pid = create("Павлова", "Нина");
        SearchApi.awaitIndexed(pid, 1);
        assertThat(metrics.getGauges()).containsKeys("indexer.queue-depth", "indexer.dead-letter-queue-depth",
                "events.outbox.backlog");
        // the gauges exist from the start (at -1, "not measured"): they must also measure the queues
        await("the indexer's gauges to measure its queues").atMost(SearchApi.INDEXING_BOUND).until(() ->
                gauge(metrics, "indexer.queue-depth") >= 0 && gauge(metrics, "indexer.dead-letter-queue-depth") > deadBefore);
        assertThat(metrics.histogram("indexer.lag-ms").getCount()).as("index lag, commit to indexed").isPositive();
        assertThat(metrics.timer("indexer.bulk").getCount()).as("bulk latency").isPositive();
    }

    static long gauge(MetricRegistry metrics, String name) {
        return ((Number) metrics.getGauges().get(name).getValue()).longValue();
    }

    @Test
    void pagesNeitherRepeatNorSkipWhileWritesGoOn() {
        var created = new ArrayList<UUID>();
        for (int i = 0; i < 5; i++) {
            created.add(create("Горбачёва", "Ирина"));
        }
        created.forEach(pid -> SearchApi.awaitIndexed(pid, 1));

        var seen = new ArrayList<UUID>();
        var first = search.search(Map.of("phone", phone, "limit", "2"));
        first.json().path("items").forEach(item -> seen.add(UUID.fromString(item.path("pid").asText())));
        // a profile created between two pages does not shift them; with no snapshot held between pages, it shows
        // if its place in the order (same score and name: its pid) is after the page already shown
        var late = create("Горбачёва", "Ирина");
        boolean lateIsAhead = late.toString().compareTo(seen.get(seen.size() - 1).toString()) > 0;
        SearchApi.awaitIndexed(late, 1);
        String cursor = first.json().path("nextCursor").asText();
        while (!cursor.isEmpty()) {
            var page = search.search(Map.of("phone", phone, "limit", "2", "cursor", cursor));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().path("items").forEach(item -> seen.add(UUID.fromString(item.path("pid").asText())));
            cursor = page.json().path("nextCursor").asText();
        }

        var expected = new ArrayList<>(created);
        if (lateIsAhead) {
            expected.add(late);
        }
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(expected);
        assertThat(search.pids(Map.of("phone", phone, "limit", "10"))).hasSize(6);
    }

    @Test
    void hydrateAddsTheDocumentAndTheAnswerSaysHowTheQueryWasRead() {
        var pid = create("Иванова", "Елена");
        SearchApi.awaitIndexed(pid, 1);

        var reply = search.search(Map.of("surname", "Bdfyjdf", "phone", phone, "hydrate", "true"));

        assertThat(reply.status()).isEqualTo(200);
        var item = reply.json().path("items").get(0);
        assertThat(item.path("pid").asText()).isEqualTo(pid.toString());
        assertThat(item.path("surname").asText()).isEqualTo("Иванова");
        assertThat(item.path("birthDate").asText()).isEqualTo("1985-03-07");
        assertThat(item.path("data").path("firstName").asText()).isEqualTo("Елена");
        var query = reply.json().path("query");
        assertThat(query.path("phone").path("digits").asText()).isEqualTo(phone.replaceAll("\\D", ""));
        var readings = new HashSet<String>();
        query.path("surname").path("readings").forEach(r -> readings.add(r.path("reading").asText() + " " + r.path("words")));
        assertThat(readings).anyMatch(r -> r.startsWith("typed with the Latin layout on") && r.contains("иванова"));
    }

    @Test
    void aWaitForAChangeThatNeverCameSaysWhereItStands() {
        var neverWritten = UUID.randomUUID();

        assertThatThrownBy(() -> SearchApi.awaitIndexed(neverWritten, 1, Duration.ofMillis(300)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("indexed at version 1")
                .hasMessageContaining("outbox: no record of it;")
                .hasMessageContaining("queue " + EventTopology.QUEUE + ": ")
                .hasMessageContaining("1 consumer(s)")
                .hasMessageContaining("the index holds version -1");
    }

    @Test
    void badSearchesAreClear() {
        assertProblem(search.search(Map.of()), 400, "invalid-query");
        assertProblem(search.search(Map.of("surname", "---")), 400, "invalid-query");
        assertProblem(search.search(Map.of("phone", "12")), 400, "invalid-query");
        assertProblem(search.search(Map.of("birthDate", "yesterday")), 400, "invalid-query");
        assertProblem(search.search(Map.of("surname", "Иванов", "limit", "101")), 400, "invalid-query");
        assertProblem(search.search(Map.of("surname", "Иванов", "limit", "ten")), 400, "bad-request");
        assertProblem(search.search(Map.of("surname", "Иванов", "cursor", "not-a-cursor")), 400, "invalid-query");
        assertProblem(search.search(Map.of("surname", "Иванов".repeat(20))), 400, "invalid-query");
    }
}
