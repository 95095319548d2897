package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.indexer.Reconciler;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import io.profilestore.wiring.Wiring;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Reindex while writes go on, interrupted and resumed; reconcile finding and repairing drift. On an index alias of its
 * own, which its service searches and its indexer writes: the reindexes move that alias and the repairs mend it, never
 * the one every other class searches. It asserts on the profiles it made; the profiles of other classes in the shared
 * keyspace are copied into its alias by each reindex, and deleted with it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IndexMaintenanceIT {

    static final String ALIAS = ownAlias();

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(Map.of("elasticsearch.indexAlias", ALIAS, "indexer.inProcess", "true")));

    Api api;
    ProfileStoreConfiguration config;
    Wiring parts;

    /** The first generation of an alias no other class uses, made as migrate makes it (before the service starts). */
    static String ownAlias() {
        var settings = TestStack.configuration().elasticsearch;
        settings.indexAlias = "maintenance-test-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try {
            ElasticsearchSchema.migrate(TestStack.backends().elasticsearch(), settings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return settings.indexAlias;
    }

    @AfterAll
    static void deleteTheOwnAlias() throws IOException {
        var indices = TestStack.backends().elasticsearch().indices();
        // by name: Elasticsearch refuses to delete by a wildcard
        for (String index : indices.get(g -> g.index(ALIAS + "-v*")).indices().keySet()) {
            indices.delete(d -> d.index(index));
        }
    }

    @BeforeEach
    void parts() {
        api = new Api(APP.getLocalPort());
        config = TestStack.configuration();
        config.elasticsearch.indexAlias = ALIAS;
        parts = new Wiring(config, TestStack.backends(), new MetricRegistry(), Api.JSON);
    }

    Reconciler.Drift reconcile(boolean repair) throws Exception {
        var out = new StringWriter();
        var drift = parts.reconciler(Duration.ofSeconds(3)).run(new PrintWriter(out), repair);
        System.out.println(out);
        return drift;
    }

    /**
     * Which of these profiles the alias does not hold as reconcile wants it: at the version Cassandra has, written with
     * an external version no older than the row's write, and not at all once deleted.
     */
    List<String> notInOrder(Collection<UUID> pids) throws IOException {
        var rows = parts.profiles().findAll(pids);
        var indexed = parts.index().versionsOf(pids);
        var wrong = new ArrayList<String>();
        for (UUID pid : pids) {
            var row = rows.get(pid);
            var held = indexed.get(pid);
            if (row == null ? held != null
                    : held == null || held.version() != row.version() || held.external() < row.written()) {
                wrong.add(pid + ": Cassandra " + (row == null ? "none" : "v" + row.version() + " written " + row.written())
                        + ", index " + (held == null ? "none" : "v" + held.version() + " external " + held.external()));
            }
        }
        return wrong;
    }

    /** The reconcile command in a JVM of its own, as a CronJob runs it, on this class's alias. */
    static ApplicationCommand.Result reconcileCommand(String... options) throws Exception {
        var arguments = new ArrayList<String>(List.of("reconcile"));
        arguments.addAll(List.of(options));
        arguments.add(TestStack.configPath());
        return ApplicationCommand.start(Map.of("ELASTICSEARCH_INDEX_ALIAS", ALIAS), arguments.toArray(String[]::new))
                .await(Duration.ofMinutes(2), "reconcile");
    }

    @Test
    void aReindexWhileWritesGoOnInterruptedAndResumedLeavesItsProfilesIndexedAsTheyAre() throws Exception {
        var seed = new ArrayList<UUID>();
        for (int i = 0; i < 40; i++) {
            seed.add(api.create("{\"surname\": \"Морозова\", \"n\": " + i + "}").pid());
        }
        var writing = new AtomicBoolean(true);
        var writes = new AtomicInteger();
        var created = new ConcurrentLinkedQueue<UUID>();
        var failedWrites = new ConcurrentLinkedQueue<String>();
        var writer = CompletableFuture.runAsync(() -> {
            int i = 0;
            while (writing.get()) {
                var pid = seed.get(i++ % seed.size());
                var current = api.get(pid);
                Api.Reply written;
                if (current.status() == 200 && i % 7 == 0) {
                    written = api.delete(pid, current.etag());
                } else if (current.status() == 200) {
                    written = api.patch(pid, current.etag(), "{\"n\": " + i + "}");
                } else {
                    written = api.create("{\"surname\": \"Морозова\", \"late\": " + i + "}");
                    if (written.status() == 201) {
                        created.add(written.pid());
                    }
                }
                // the only writer: every change must go through, a reindex or not
                if (written.status() >= 200 && written.status() < 300) {
                    writes.incrementAndGet();
                } else {
                    failedWrites.add(written.status() + " " + written.body());
                }
            }
        });
        var reindexer = parts.reindexer();
        String before = parts.aliases().currentIndex();

        var firstRun = reindexer.run(quiet(), false, 20);
        assertThat(parts.aliases().currentIndex()).as("not swapped before it is complete").isEqualTo(before);
        var secondRun = reindexer.run(quiet(), false, -1);
        writing.set(false);
        writer.join();

        assertThat(secondRun.resumed()).isTrue();
        assertThat(secondRun.to()).isEqualTo(firstRun.to());
        assertThat(parts.aliases().currentIndex()).isEqualTo(secondRun.to()).isNotEqualTo(before);
        assertThat(parts.aliases().nextIndex()).isEmpty();
        assertThat(writes.get()).as("writes went on during the reindex").isPositive();
        assertThat(failedWrites).as("writes refused during the reindex").isEmpty();
        // the indexer may still be working off the changes made under the reindex's load; a lost change would
        // never arrive (nothing repairs it here), so the index must converge on its own
        var ours = new ArrayList<UUID>(seed);
        ours.addAll(created);
        await("this test's profiles indexed as Cassandra holds them, without repair").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1)).until(() -> notInOrder(ours), List::isEmpty);
    }

    @Test
    void aWritePlannedBeforeTheSwapAndSentAfterItLandsInTheNewGenerationAndRecreatesNoOldOne() throws Exception {
        var pid = api.create("{\"surname\": \"Соколова\"}").pid();
        SearchApi.awaitIndexed(ALIAS, pid, 1, SearchApi.INDEXING_BOUND);
        var erased = UUID.randomUUID();
        var reindexer = parts.reindexer();
        String from = parts.aliases().currentIndex();
        reindexer.run(quiet(), false, 0); // the next generation exists, nothing copied yet

        // the indexer plans a batch: the profile as read, and where to write it...
        var read = parts.documents().current(List.of(pid)).documents().get(pid);
        var targets = parts.index().writeTargets();
        // ...then the reindex finishes: alias swapped, old generation deleted...
        var finished = reindexer.run(quiet(), false, -1);
        assertThat(parts.aliases().currentIndex()).isEqualTo(finished.to());
        // ...and only then the batch arrives, as a newer write of the profile and the erase of another
        var writes = new ArrayList<SearchIndex.Write>();
        for (String target : targets) {
            writes.add(new SearchIndex.Put(target, pid, read.document(), read.written() + 1));
            writes.add(new SearchIndex.Remove(target, erased, read.written() + 1));
        }
        var results = parts.index().bulk(writes);

        assertThat(results).hasSameSizeAs(writes).extracting(SearchIndex.Result::outcome)
                .doesNotContain(SearchIndex.Outcome.REJECTED);
        assertThat(parts.index().versionsOf(List.of(pid)).get(pid).external())
                .as("the newer write reached the live generation").isEqualTo(read.written() + 1);
        var indices = TestStack.backends().elasticsearch().indices();
        assertThat(indices.exists(e -> e.index(from)).value()).as("the old generation stays deleted").isFalse();
        assertThat(indices.exists(e -> e.index(SearchIndex.nextAlias(parts.index().alias()))).value())
                .as("no index created under the next alias's name").isFalse();
    }

    @Test
    void aProfileWhoseDataIsUnreadableIsSkippedByAReindexAndNamedByReconcile() throws Exception {
        var good = api.create("{\"surname\": \"Лебедева\"}").pid();
        var bad = UUID.randomUUID();
        var cassandra = TestStack.backends().cassandra();
        cassandra.execute(SimpleStatement.newInstance(
                "INSERT INTO profiles.profile (pid, uid, version, data, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)",
                bad, UUID.randomUUID(), "{not json", Instant.now(), Instant.now()));
        try {
            var reindexer = parts.reindexer();
            var result = reindexer.run(quiet(), false, -1);

            assertThat(result.rejected()).as("the unreadable profile, counted").isGreaterThanOrEqualTo(1);
            assertThat(parts.index().versionsOf(List.of(good, bad))).as("the readable one copied, the other skipped")
                    .containsOnlyKeys(good);
            var drift = reconcile(false);
            assertThat(drift.unreadable()).contains(bad);
            assertThat(drift.missing()).as("not drift reconcile could repair").doesNotContain(bad);
            assertThat(drift.unrepaired()).isGreaterThanOrEqualTo(1);
            // the command, as a CronJob runs it: what it cannot repair makes it fail, for the scheduler to see
            var command = reconcileCommand();
            assertThat(command.exitCode()).as("reconcile:%n%s", command.output()).isEqualTo(1);
            assertThat(command.output()).contains("unreadable " + bad).contains("still differ or cannot be indexed");
        } finally {
            cassandra.execute(SimpleStatement.newInstance("DELETE FROM profiles.profile WHERE pid = ?", bad));
        }
    }

    @Test
    void reconcileRepairsDocumentsChangedByHand() throws Exception {
        var changed = api.create("{\"surname\": \"Лебедева\"}").pid();
        var removed = api.create("{\"surname\": \"Лебедева\"}").pid();
        var invented = UUID.randomUUID();
        SearchApi.awaitIndexed(ALIAS, changed, 1, SearchApi.INDEXING_BOUND);
        SearchApi.awaitIndexed(ALIAS, removed, 1, SearchApi.INDEXING_BOUND);
        var client = TestStack.backends().elasticsearch();
        String index = parts.aliases().currentIndex();
        // by hand: a surname edited (the index bumps the version), a document deleted, one invented
        client.index(i -> i.index(index).id(changed.toString()).document(Map.of("pid", changed.toString(), "surname", "Подделкина")));
        client.delete(d -> d.index(index).id(removed.toString()));
        client.index(i -> i.index(index).id(invented.toString()).document(Map.of("pid", invented.toString())));
        client.indices().refresh(r -> r.index(index));

        var drift = reconcile(true);

        assertThat(drift.stale()).contains(changed);
        assertThat(drift.missing()).contains(removed);
        assertThat(drift.extra()).contains(invented);
        assertThat(drift.notRepaired()).doesNotContain(changed, removed, invented);
        client.indices().refresh(r -> r.index(index));
        assertThat(SearchApi.indexedVersion(ALIAS, changed)).isEqualTo(1);
        assertThat(SearchApi.indexedVersion(ALIAS, removed)).isEqualTo(1);
        assertThat(SearchApi.indexedVersion(ALIAS, invented)).isEqualTo(-1);
        JsonNode source = client.get(g -> g.index(index).id(changed.toString()), JsonNode.class).source();
        assertThat(source.path("surname").asText()).isEqualTo("Лебедева");
        assertThat(notInOrder(List.of(changed, removed, invented))).as("after the repair").isEmpty();
        // the command, as a CronJob runs it, exits as its findings say: 0 with nothing left to repair. Profiles with
        // unreadable data that a run killed before its clean-up left in a reused stack make it fail, and rightly
        var after = reconcile(false);
        var command = reconcileCommand("--dry-run");
        assertThat(command.exitCode()).as("reconcile --dry-run:%n%s", command.output())
                .isEqualTo(after.unrepaired() == 0 ? 0 : 1);
    }

    @Test
    void theCommandsRunFromTheJar() {
        // the commands are wired into the application (their logic is tested above)
        var commands = new ArrayList<String>();
        var bootstrap = new Bootstrap<>(new ProfileStoreApplication());
        new ProfileStoreApplication().initialize(bootstrap);
        bootstrap.getCommands().forEach(c -> commands.add(c.getName()));
        assertThat(commands).contains("migrate", "indexer", "reindex", "reconcile");
    }

    static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
