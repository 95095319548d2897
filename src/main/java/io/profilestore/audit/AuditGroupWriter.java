package io.profilestore.audit;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;

/**
 * Records operators' look-ups in groups: one thread takes what has queued (and, with a linger, what arrives
 * shortly after), inserts it in one statement and commits once; each look-up waits for its own group's commit, so
 * that none is answered before its record is durable. A group that fails fails every look-up in it, and none is
 * written again (the outcome of a commit that went unanswered is unknown). Bounded everywhere: a full queue refuses
 * at once, and no look-up waits longer than {@code maxWait}, whatever PostgreSQL does.
 */
public final class AuditGroupWriter extends QueueWriter<AuditGroupWriter.Pending> implements LookUpRecorder {

    /** Records per commit. */
    public static final String GROUP_SIZE = "audit.group-size";
    /** A look-up's wait for its record's commit, from its queueing. */
    public static final String WAIT = "audit.wait";
    /** Records waiting for a group now. */
    public static final String QUEUED = "audit.queued";

    /** A look-up's record and the commit it waits for. */
    record Pending(AuditEntry entry, CompletableFuture<Void> committed) {
    }

    private final DataSource dataSource;
    private final Duration maxWait;
    private final Histogram groupSizes;
    private final Timer waits;
    private final Meter failures;
    /** Runs between a look-up's check that records are taken and its queueing: a seam for tests of that race. */
    private volatile Runnable beforeQueueing = () -> { };

    /**
     * Stopping commits what is queued for {@link AuditSettings#stopWait()} at most (a PostgreSQL that hangs): what is
     * still queued then is refused, and its look-ups answered 503.
     */
    public AuditGroupWriter(DataSource dataSource, AuditSettings settings, MetricRegistry metrics) {
        super("audit-group-writer", settings.queueSize, settings.maxGroupSize,
                settings.linger.toJavaDuration(), settings.stopWait());
        this.dataSource = dataSource;
        this.maxWait = settings.maxWait.toJavaDuration();
        this.groupSizes = metrics.histogram(GROUP_SIZE);
        this.waits = metrics.timer(WAIT);
        this.failures = metrics.meter(AuditLog.FAILURES);
        metrics.gauge(QUEUED, () -> this::queued);
    }

    /** Sets what runs between a look-up's check that records are taken and its queueing (tests only). */
    void beforeQueueing(Runnable hook) {
        this.beforeQueueing = hook;
    }

    /** Whether records are still taken (false once stopping, or once the writer has ended). */
    boolean accepting() {
        return taking();
    }

    /**
     * Queues a look-up's record and returns once its group is committed.
     *
     * @throws AuditUnavailableException when the queue is full, the group's commit failed, or it took longer than
     *         {@code maxWait} (the record may then still be committed: the trail may show a look-up that was
     *         refused, never the other way round)
     */
    @Override
    public void record(AuditEntry entry) {
        var pending = new Pending(entry, new CompletableFuture<>());
        if (!taking() || !queue(pending)) {
            failures.mark();
            throw new AuditUnavailableException(new IllegalStateException(
                    taking() ? "the audit queue is full" : notTaking()));
        }
        // stop may have begun (or the writer ended) between the check and the queueing, and the writer's drain or
        // stop's passed before this record was queued: then nobody would take it. Taken back, it is refused now; not
        // there any more, the writer or a drain has it, and commits or refuses it.
        if (!taking() && takeBack(pending)) {
            failures.mark();
            throw new AuditUnavailableException(new IllegalStateException(notTaking()));
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

    private String notTaking() {
        return stopping() ? "the service is stopping" : "the audit writer has ended";
    }

    private boolean queue(Pending pending) {
        beforeQueueing.run();
        return offer(pending);
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

    /** One INSERT of the group and one commit; every look-up in it learns the outcome. */
    @Override
    void write(List<Pending> taken) {
        // a look-up that has given up (timed out while queued) is refused already: its record is not written
        var group = new ArrayList<Pending>(taken);
        group.removeIf(pending -> pending.committed().isDone());
        if (group.isEmpty()) {
            return;
        }
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
            abandon(group, e);
            return;
        }
        groupSizes.update(group.size());
        group.forEach(pending -> pending.committed().complete(null));
    }

    /** Refuses the look-ups (503). */
    @Override
    void abandon(List<Pending> group, Throwable cause) {
        group.forEach(pending -> pending.committed().completeExceptionally(cause));
    }

    private static void rollBack(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // the connection is broken: the pool drops it, and the transaction is gone with it
        }
    }
}
