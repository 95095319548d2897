package io.profilestore.bench;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.CommonStatsFlag;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Waits until the backends have digested what was loaded into them: Elasticsearch merges no segments and no Cassandra
 * node compacts; and, after the warm-up, until the service's JIT is done with it. A million imported profiles leave minutes of both behind; a scenario measured meanwhile competes
 * with them for the two cores, and the scenario that comes first pays more than the one after it, although
 * side-by-side ratios assume they ran on the same machine.
 */
final class QuietBackends {

    /** Samples in a row that must find nothing at work: one may fall between two merges or two compactions. */
    private static final int QUIET_SAMPLES = 3;

    private QuietBackends() {
    }

    static void awaitMergesDone(ElasticsearchClient es) {
        awaitQuiet("Elasticsearch's merges to end", () -> {
            try {
                return es.indices().stats(st -> st.index("profiles").metric(CommonStatsFlag.Merge))
                        .all().total().merges().current() == 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /**
     * Waits until every node is up and none runs or has queued a compaction (or another sstable task), as each node's
     * virtual tables say (they answer for the node asked only, so every node is asked). A node that is down, or a read
     * that fails on a busy node, counts as not quiet and is asked again.
     */
    static void awaitCompactionsDone(CqlSession session) {
        awaitQuiet("Cassandra's compactions to end", () -> {
            var nodes = session.getMetadata().getNodes().values();
            return !nodes.isEmpty() && nodes.stream().allMatch(node -> node.getState() == NodeState.UP
                    && tasksOn(session, node) == 0);
        });
    }

    /** The sstable tasks (compactions above all) a node runs, and the compactions it has queued. */
    static long tasksOn(CqlSession session, Node node) {
        long running = session.execute(SimpleStatement.newInstance("SELECT kind FROM system_views.sstable_tasks")
                .setNode(node)).all().size();
        var pool = session.execute(SimpleStatement.newInstance("SELECT active_tasks, pending_tasks FROM"
                + " system_views.thread_pools WHERE name = 'CompactionExecutor'").setNode(node)).one();
        return running + (pool == null ? 0 : pool.getInt("active_tasks") + pool.getInt("pending_tasks"));
    }

    /** Milliseconds of compiling in one 2 s sample below which the JIT counts as quiet. */
    static final long QUIET_JIT_MILLIS = 20;

    /** How long the JIT is waited for at most: it may never go quiet, and the run goes on then, saying so. */
    static final Duration JIT_WAIT = Duration.ofMinutes(3);

    /**
     * Waits, at most {@link #JIT_WAIT}, until the JIT of this JVM, the service's, has compiled what the warm-up gave
     * it: the service is measured first, and a scenario measured while its compiler threads still work pays for them
     * on two cores, where the backend measured after it does not. It only drains what the warm-up reached: a scenario
     * still compiles what it alone reaches. Returns whether the JIT went quiet (a JVM that cannot say counts as quiet).
     */
    static boolean awaitJitQuiet() {
        var jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return true;
        }
        var last = new AtomicLong(jit.getTotalCompilationTime());
        try {
            awaitQuiet("the service's JIT to have compiled what the warm-up asked for", JIT_WAIT, () -> {
                long now = jit.getTotalCompilationTime();
                return now - last.getAndSet(now) < QUIET_JIT_MILLIS;
            });
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** A call that fails (a stats call or a read timing out on a busy node) counts as not quiet and is made again. */
    private static void awaitQuiet(String what, BooleanSupplier quiet) {
        awaitQuiet(what, Duration.ofMinutes(20), quiet);
    }

    private static void awaitQuiet(String what, Duration atMost, BooleanSupplier quiet) {
        var quietSamples = new AtomicInteger();
        Awaitility.await(what).atMost(atMost).pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    if (isQuiet(quiet)) {
                        return quietSamples.incrementAndGet() >= QUIET_SAMPLES;
                    }
                    quietSamples.set(0);
                    return false;
                });
    }

    private static boolean isQuiet(BooleanSupplier quiet) {
        try {
            return quiet.getAsBoolean();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
