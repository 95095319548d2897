package io.profilestore.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.CommonStatsFlag;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;

/**
 * Waits until the backends have digested what was loaded into them: Elasticsearch merges no segments and no Cassandra
 * node compacts. A million imported profiles leave minutes of both behind; a scenario measured meanwhile competes
 * with them for the two cores, and the scenario that comes first pays more than the one after it, although
 * side-by-side ratios assume they ran on the same machine.
 */
final class QuietBackends {

    /** Samples in a row that must find nothing at work: one may fall between two merges or two compactions. */
    private static final int QUIET_SAMPLES = 3;

    private QuietBackends() {
    }

    static void awaitMergesDone(ElasticsearchClient es) {
        // a stats call may time out while merges hold the node's threads: asked again
        awaitQuiet("Elasticsearch's merges to end", true, () -> {
            try {
                return es.indices().stats(st -> st.index("profiles").metric(CommonStatsFlag.Merge))
                        .all().total().merges().current() == 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Waits until no node runs a compaction or has one queued, as each node's virtual tables say (they answer for the
     * node asked only, so every node is asked).
     */
    static void awaitCompactionsDone(CqlSession session) {
        // a virtual table's read fails only if it is asked wrongly: that stops the run at once
        awaitQuiet("Cassandra's compactions to end", false, () -> session.getMetadata().getNodes()
                .values().stream().filter(node -> node.getState() == NodeState.UP)
                .allMatch(node -> compactionsOn(session, node) == 0));
    }

    /** The compactions a node runs and has queued. */
    static long compactionsOn(CqlSession session, Node node) {
        long running = session.execute(SimpleStatement.newInstance(
                "SELECT kind FROM system_views.sstable_tasks").setNode(node)).all().stream()
                .filter(row -> row.getString("kind").toLowerCase(Locale.ROOT).contains("compaction")).count();
        var pool = session.execute(SimpleStatement.newInstance("SELECT active_tasks, pending_tasks FROM"
                + " system_views.thread_pools WHERE name = 'CompactionExecutor'").setNode(node)).one();
        return running + (pool == null ? 0 : pool.getInt("active_tasks") + pool.getInt("pending_tasks"));
    }

    private static void awaitQuiet(String what, boolean askAgainOnError, BooleanSupplier quiet) {
        var quietSamples = new AtomicInteger();
        var await = Awaitility.await(what).atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofSeconds(2));
        (askAgainOnError ? await.ignoreExceptions() : await).until(() -> quiet.getAsBoolean() ? quietSamples.incrementAndGet() >= QUIET_SAMPLES
                        : quietSamples.getAndSet(0) < 0);
    }
}
