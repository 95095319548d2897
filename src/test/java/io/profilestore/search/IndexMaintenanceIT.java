package io.profilestore.search;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.cli.IndexCommands;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.indexer.Reconciler;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Reindex while writes go on, interrupted and resumed; reconcile finding and repairing drift. */
@ExtendWith(DropwizardExtensionsSupport.class)
class IndexMaintenanceIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    Api api;
    IndexCommands.Parts parts;

    @BeforeEach
    void parts() {
        api = new Api(APP.getLocalPort());
        parts = IndexCommands.parts(TestStack.configuration(), TestStack.backends(), new MetricRegistry(), Api.JSON);
    }

    Reconciler.Drift reconcile(boolean repair) throws Exception {
        var out = new StringWriter();
        var drift = IndexCommands.reconciler(parts, Duration.ofSeconds(3)).run(new PrintWriter(out), repair);
        System.out.println(out);
        return drift;
    }

    @Test
    void aReindexWhileWritesGoOnInterruptedAndResumedLeavesNoDrift() throws Exception {
        reconcile(true); // whatever earlier runs left behind
        var seed = new ArrayList<UUID>();
        for (int i = 0; i < 40; i++) {
            seed.add(api.create("{\"surname\": \"Морозова\", \"n\": " + i + "}").pid());
        }
        var writing = new AtomicBoolean(true);
        var writes = new AtomicInteger();
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
                }
                // the only writer: every change must go through, a reindex or not
                if (written.status() >= 200 && written.status() < 300) {
                    writes.incrementAndGet();
                } else {
                    failedWrites.add(written.status() + " " + written.body());
                }
            }
        });
        var reindexer = IndexCommands.reindexer(TestStack.configuration(), TestStack.backends(), parts);
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
        await("no drift after the reindex, without repair").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
                .until(() -> reconcile(false).total(), drift -> drift == 0);
    }

    @Test
    void aWritePlannedBeforeTheSwapAndSentAfterItLandsInTheNewGenerationAndRecreatesNoOldOne() throws Exception {
        var pid = api.create("{\"surname\": \"Соколова\"}").pid();
        SearchApi.awaitIndexed(pid, 1, Duration.ofSeconds(10));
        var erased = UUID.randomUUID();
        var reindexer = IndexCommands.reindexer(TestStack.configuration(), TestStack.backends(), parts);
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

        assertThat(results).extracting(SearchIndex.Result::outcome).doesNotContain(SearchIndex.Outcome.REJECTED);
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
            var reindexer = IndexCommands.reindexer(TestStack.configuration(), TestStack.backends(), parts);
            var result = reindexer.run(quiet(), false, -1);

            assertThat(result.rejected()).as("the unreadable profile, counted").isGreaterThanOrEqualTo(1);
            SearchApi.awaitIndexed(good, 1, Duration.ofSeconds(10));
            var drift = reconcile(false);
            assertThat(drift.unreadable()).contains(bad);
            assertThat(drift.missing()).as("not drift reconcile could repair").doesNotContain(bad);
            assertThat(drift.unrepaired()).isGreaterThanOrEqualTo(1);
            // the command, as a CronJob runs it: what it cannot repair makes it fail, for the scheduler to see
            var command = ApplicationCommand.run(Duration.ofMinutes(2), "reconcile", TestStack.configPath());
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
        SearchApi.awaitIndexed(changed, 1, Duration.ofSeconds(10));
        SearchApi.awaitIndexed(removed, 1, Duration.ofSeconds(10));
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
        assertThat(drift.notRepaired()).isEmpty();
        client.indices().refresh(r -> r.index(index));
        assertThat(SearchApi.indexedVersion(changed)).isEqualTo(1);
        assertThat(SearchApi.indexedVersion(removed)).isEqualTo(1);
        assertThat(SearchApi.indexedVersion(invented)).isEqualTo(-1);
        JsonNode source = client.get(g -> g.index(index).id(changed.toString()), JsonNode.class).source();
        assertThat(source.path("surname").asText()).isEqualTo("Лебедева");
        var after = reconcile(false);
        assertThat(after.total()).isZero();
        // the command, as a CronJob runs it: nothing left to repair is a success. Profiles with unreadable data that
        // a run killed before its clean-up left in a reused stack would still make it fail, and rightly
        var command = ApplicationCommand.run(Duration.ofMinutes(2), "reconcile", "--dry-run", TestStack.configPath());
        assertThat(command.exitCode()).as("reconcile --dry-run:%n%s", command.output())
                .isEqualTo(after.unreadable().isEmpty() ? 0 : 1);
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
