package io.profilestore.audit;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records machines' look-ups, their searches and their reads by id ({@link io.profilestore.auth.Caller#isMachine()}),
 * after they are answered: the platform reads and searches far too often to wait for a commit each time, yet each
 * names people as much as an operator's does. A look-up queues its record and is answered at once; one thread commits
 * what has queued in groups. A full queue refuses the look-up (503), so that no more than the queue is ever answered
 * unrecorded. Its metrics and settings keep the names they had when only searches were recorded
 * ({@code audit.machine-searches.*}, {@code audit.machineSearch*}): dashboards, alerts and deployments use them.
 *
 * <p>A group that fails is written again (with a pause that grows to {@link #LONGEST_PAUSE}) until it commits or the
 * service stops: meanwhile the queue fills and look-ups are refused, instead of answered with their records dropped.
 * A commit that went unanswered may have landed, so the trail may show a machine's look-up twice; never none, but for
 * what a crash takes (what is queued and the group being written), and for a record PostgreSQL refuses for what it holds
 * while the others of its group are taken (given up alone, counted as lost, logged with its SQLSTATE).
 */
public final class MachineLookUpWriter extends QueueWriter<AuditEntry> implements LookUpRecorder {

    /** Records waiting for their group now. */
    public static final String QUEUED = "audit.machine-searches.queued";
    /** Records committed. */
    public static final String WRITTEN = "audit.machine-searches.written";
    /** Group writes that failed (each is tried again). */
    public static final String FAILED = "audit.machine-searches.failed";
    /** Look-ups refused because their record could not be queued: the queue full, or the service stopping. */
    public static final String REFUSED = "audit.machine-searches.refused";
    /** Records given up without a commit: left when the stop's wait ran out, or when the writer ended. */
    public static final String LOST = "audit.machine-searches.lost";

    static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(MachineLookUpWriter.class);

    private final DataSource dataSource;
    private final Meter written;
    private final Meter failed;
    private final Meter refused;
    private final Meter lost;
    private final Meter failures;

    /**
     * Stopping commits what is queued for {@link AuditSettings#machineSearchStopWait()} at most; what is left then is
     * lost.
     */
    public MachineLookUpWriter(DataSource dataSource, AuditSettings settings, MetricRegistry metrics) {
        super("audit-machine-search-writer", settings.machineSearchQueueSize, settings.maxGroupSize,
                settings.machineSearchLinger.toJavaDuration(), settings.machineSearchStopWait());
        this.dataSource = dataSource;
        this.written = metrics.meter(WRITTEN);
        this.failed = metrics.meter(FAILED);
        this.refused = metrics.meter(REFUSED);
        this.lost = metrics.meter(LOST);
        this.failures = metrics.meter(AuditLog.FAILURES);
        metrics.gauge(QUEUED, () -> this::queued);
    }

    /**
     * Queues a machine's look-up's record and returns at once.
     *
     * @throws AuditUnavailableException when the queue is full or the service is stopping: the look-up is refused
     */
    @Override
    public void record(AuditEntry entry) {
        if (!taking() || !offer(entry)) {
            refuse(taking() ? "the machine look-up audit queue is full" : "the audit writer is not taking records");
        }
        // the writer stopped between the check and the queueing, after its last look at the queue: nobody would take it
        if (!taking() && takeBack(entry)) {
            refuse("the service is stopping");
        }
    }

    private void refuse(String why) {
        refused.mark();
        failures.mark();
        throw new AuditUnavailableException(new IllegalStateException(why));
    }

    /** One INSERT (a JDBC batch) and one commit, tried again until it commits or the service stops. */
    @Override
    void write(List<AuditEntry> all) {
        var group = all;
        var pause = FIRST_PAUSE;
        while (true) {
            try {
                insert(group);
                written.mark(group.size());
                return;
            } catch (SQLException | RuntimeException e) {
                failed.mark();
                failures.mark();
                String state = e instanceof SQLException sql ? state(sql) : null;
                if (refusedForGood(state)) {
                    // what PostgreSQL refuses for what a record holds is refused on every try: retried, one record
                    // would hold back its group and, the queue filling behind it, every machine's look-up
                    group = writeAlone(group);
                    if (group.isEmpty()) {
                        return;
                    }
                }
                // the class and state only: a batch's exception may quote the statement's values, searched names
                LOG.warn("{} machine look-up record(s) not committed ({} {}); tried again", group.size(),
                        e.getClass().getSimpleName(), state == null ? "" : state);
                if (stopping()) {
                    abandon(group, e);
                    return;
                }
            }
            try {
                // a back-off, not a wait for a condition: PostgreSQL is down or slow, and retrying at once only adds
                // load; the queue meanwhile fills, and a full queue refuses look-ups
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                abandon(group, e);
                return;
            }
            pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
        }
    }

    /**
     * Writes each record on its own. One refused for good alone is given up, counted as lost; unless every one is,
     * which says the fault is not theirs (a table or a constraint changed): then none is, and the whole group is
     * tried again as any failure is, the queue filling meanwhile, so that no look-up is answered unrecorded beyond it.
     * Returns what is left to write: after a failure that may pass, the records not written yet.
     */
    private List<AuditEntry> writeAlone(List<AuditEntry> group) {
        var refusedAlone = new ArrayList<AuditEntry>();
        var left = new ArrayList<AuditEntry>();
        SQLException why = null;
        for (var one : group) {
            if (!left.isEmpty()) {
                left.add(one); // after a failure that may pass, the rest wait for the next try
                continue;
            }
            try {
                insert(List.of(one));
                written.mark();
            } catch (SQLException e) {
                if (refusedForGood(state(e))) {
                    refusedAlone.add(one);
                    why = e;
                } else {
                    left.add(one);
                }
            } catch (RuntimeException e) {
                left.add(one);
            }
        }
        if (refusedAlone.size() == group.size()) {
            return group;
        }
        if (!refusedAlone.isEmpty()) {
            abandon(refusedAlone, why);
        }
        return left;
    }

    /**
     * SQLSTATE classes of what the values themselves cause: a data exception (22: a NUL in a text, say), an integrity
     * violation (23), a program limit exceeded (54: an index entry too large). Trying again cannot help.
     */
    static boolean refusedForGood(String state) {
        return state != null && (state.startsWith("22") || state.startsWith("23") || state.startsWith("54"));
    }

    /** The state of the first exception of the chain that has one: a JDBC batch's own often has none. */
    private static String state(SQLException e) {
        for (var next = e; next != null; next = next.getNextException()) {
            if (next.getSQLState() != null) {
                return next.getSQLState();
            }
        }
        return null;
    }

    private void insert(List<AuditEntry> group) throws SQLException {
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                AuditLog.insert(connection, group);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollBack(connection);
                throw e;
            }
        }
    }

    /** These look-ups were answered and their records are not written: counted, and said without what was asked. */
    @Override
    void abandon(List<AuditEntry> records, Throwable why) {
        lost.mark(records.size());
        failures.mark(records.size());
        LOG.error("{} machine look-up record(s) lost from the audit trail ({}{})", records.size(),
                why.getClass().getSimpleName(), why instanceof SQLException sql && state(sql) != null
                        ? " " + state(sql) + ": PostgreSQL refuses what the record holds" : "");
    }

    private static void rollBack(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            // the connection is broken: the pool drops it, and the transaction is gone with it
        }
    }
}
