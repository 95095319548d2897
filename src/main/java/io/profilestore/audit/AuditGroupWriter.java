package io.profilestore.audit;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.dropwizard.lifecycle.Managed;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records operators' look-ups in groups: one thread takes what has queued (and, with a linger, what arrives
 * shortly after), inserts it in one statement and commits once; each look-up waits for its own group's commit, so
 * that none is answered before its record is durable. A group that fails fails every look-up in it, and none is
 * written again (the outcome of a commit that went unanswered is unknown). Bounded everywhere: a full queue refuses
 * at once, and no look-up waits longer than {@code maxWait}, whatever PostgreSQL does.
 */
public final class AuditGroupWriter implements Managed {

    /** Records per commit. */
    public static final String GROUP_SIZE = "audit.group-size";
    /** A look-up's wait for its record's commit, from its queueing. */
    public static final String WAIT = "audit.wait";
    /** Records waiting for a group now. */
    public static final String QUEUED = "audit.queued";

    private static final Logger LOG = LoggerFactory.getLogger(AuditGroupWriter.class);
    /** How often an idle writer looks whether it is being stopped. */
    private static final Duration IDLE_POLL = Duration.ofMillis(100);

    /** A look-up's record and the commit it waits for. */
    private record Pending(AuditEntry entry, CompletableFuture<Void> committed) {
    }

    private final DataSource dataSource;
    private final int maxGroupSize;
    private final long lingerNanos;
    private final Duration maxWait;
    private final BlockingQueue<Pending> queue;
    private final Thread writer;
    private final Histogram groupSizes;
    private final Timer waits;
    private final Meter failures;
    private volatile boolean accepting = true;
    /** Runs between a look-up's check that records are taken and its queueing: a seam for tests of that race. */
    private volatile Runnable beforeQueueing = () -> { };

    public AuditGroupWriter(DataSource dataSource, AuditSettings settings, MetricRegistry metrics) {
        this.dataSource = dataSource;
        this.maxGroupSize = settings.getMaxGroupSize();
        this.lingerNanos = settings.getLinger().toNanoseconds();
        this.maxWait = settings.getMaxWait().toJavaDuration();
        this.queue = new ArrayBlockingQueue<>(settings.getQueueSize());
        this.groupSizes = metrics.histogram(GROUP_SIZE);
        this.waits = metrics.timer(WAIT);
        this.failures = metrics.meter(AuditLog.FAILURES);
        metrics.gauge(QUEUED, () -> queue::size);
        this.writer = new Thread(this::run, "audit-group-writer");
        this.writer.setDaemon(true);
    }

    @Override
    public void start() {
        writer.start();
    }

    /**
     * Stops taking records, commits what is queued, and ends the writer. Waits twice {@code maxWait} at most (a
     * PostgreSQL that hangs): what is still queued then is refused, and its look-ups answered 503.
     */
    @Override
    public void stop() throws InterruptedException {
        accepting = false;
        writer.join(maxWait.multipliedBy(2).toMillis());
        var left = new ArrayList<Pending>();
        queue.drainTo(left);
        fail(left, new IllegalStateException("the service is stopping"));
    }

    /** Sets what runs between a look-up's check that records are taken and its queueing (tests only). */
    void beforeQueueing(Runnable hook) {
        this.beforeQueueing = hook;
    }

    /** Whether records are still taken (false once stopping). */
    boolean accepting() {
        return accepting;
    }

    /**
     * Queues a look-up's record and returns once its group is committed.
     *
     * @throws AuditUnavailableException when the queue is full, the group's commit failed, or it took longer than
     *         {@code maxWait} (the record may then still be committed: the trail may show a look-up that was
     *         refused, never the other way round)
     */
    public void record(AuditEntry entry) {
        var pending = new Pending(entry, new CompletableFuture<>());
        if (!accepting || !offer(pending)) {
            failures.mark();
            throw new AuditUnavailableException(new IllegalStateException(
                    accepting ? "the audit queue is full" : "the service is stopping"));
        }
        // stop may have begun between the check and the queueing, and its writer ended and its drain passed before
        // this record was queued: then nobody would take it. Taken back, it is refused now; not there any more, the
        // writer or stop's drain has it, and commits or refuses it.
        if (!accepting && queue.remove(pending)) {
            failures.mark();
            throw new AuditUnavailableException(new IllegalStateException("the service is stopping"));
        }
        try (var waiting = waits.time()) {
            pending.committed().get(maxWait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            failures.mark();
            throw new AuditUnavailableException(e.getCause());
        } catch (TimeoutException e) {
            giveUp(pending, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            giveUp(pending, e);
        }
    }

    private boolean offer(Pending pending) {
        beforeQueueing.run();
        return queue.offer(pending);
    }

    /**
     * A look-up stops waiting: refused, unless its group committed at this very moment. One still queued is then
     * passed over by the writer; one in a group being written may still be committed.
     */
    private void giveUp(Pending pending, Exception why) {
        if (pending.committed().completeExceptionally(why) || pending.committed().isCompletedExceptionally()) {
            failures.mark();
            throw new AuditUnavailableException(why);
        }
    }

    private void run() {
        while (accepting || !queue.isEmpty()) {
            try {
                var group = nextGroup();
                if (!group.isEmpty()) {
                    commit(group);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("the audit writer failed unexpectedly; it goes on", e);
            }
        }
    }

    /** The records queued now, after waiting for the first; empty when none came (or all gave up waiting). */
    private List<Pending> nextGroup() throws InterruptedException {
        var group = new ArrayList<Pending>(Math.min(maxGroupSize, 64));
        var first = queue.poll(IDLE_POLL.toNanos(), TimeUnit.NANOSECONDS);
        if (first == null) {
            return group;
        }
        group.add(first);
        queue.drainTo(group, maxGroupSize - group.size());
        long lingerEnd = System.nanoTime() + lingerNanos;
        for (long left = lingerNanos; group.size() < maxGroupSize && left > 0; left = lingerEnd - System.nanoTime()) {
            var more = queue.poll(left, TimeUnit.NANOSECONDS);
            if (more == null) {
                break;
            }
            group.add(more);
            queue.drainTo(group, maxGroupSize - group.size());
        }
        // a look-up that has given up (timed out while queued) is refused already: its record is not written
        group.removeIf(pending -> pending.committed().isDone());
        return group;
    }

    /** One INSERT of the group and one commit; every look-up in it learns the outcome. */
    private void commit(List<Pending> group) {
        var entries = group.stream().map(Pending::entry).toList();
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                AuditLog.insert(connection, entries);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollBack(connection);
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            fail(group, e);
            return;
        }
        groupSizes.update(group.size());
        group.forEach(pending -> pending.committed().complete(null));
    }

    private static void rollBack(java.sql.Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // the connection is broken: the pool drops it, and the transaction is gone with it
        }
    }

    private static void fail(List<Pending> group, Throwable cause) {
        group.forEach(pending -> pending.committed().completeExceptionally(cause));
    }
}
