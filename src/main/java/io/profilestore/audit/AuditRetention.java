package io.profilestore.audit;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the audit trail's retention: removes the records older than {@code audit.retention}, with their outcomes.
 * The service's role cannot delete a record, nor change the retention; it asks {@code purge_expired_audit}, a function
 * of the trail's owner that removes only what the retention, written by {@code migrate}, lets go (V20). Every API
 * instance sweeps hourly, the first sweep a minute after its start, a batch at a time; two at once take different
 * records.
 */
public class AuditRetention implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(AuditRetention.class);
    static final int BATCH = 5_000;

    private final DataSource postgres;
    private final Counter purged;
    private final Counter failures;
    private ScheduledExecutorService schedule;

    public AuditRetention(DataSource postgres, MetricRegistry metrics) {
        this.postgres = postgres;
        this.purged = metrics.counter("audit.retention.purged");
        // an alert's: a retention no sweep enforces is a trail kept longer than it may be
        this.failures = metrics.counter("audit.retention.failures");
    }

    @Override
    public void start() {
        schedule = Executors.newSingleThreadScheduledExecutor(task -> {
            var thread = new Thread(task, "audit-retention");
            thread.setDaemon(true);
            return thread;
        });
        schedule.scheduleWithFixedDelay(this::sweepLogged, 1, 60, TimeUnit.MINUTES);
    }

    @Override
    public void stop() {
        // a sweep cut short loses nothing: each batch is a transaction of its own, and the next sweep goes on
        schedule.shutdownNow();
    }

    /** Removes every expired record, a batch per transaction; returns how many went. */
    public long sweep() throws SQLException {
        long total = 0;
        long removed;
        do {
            removed = purgeBatch();
            total += removed;
            purged.inc(removed);
        } while (removed == BATCH);
        if (total > 0) {
            LOG.info("audit retention: {} record(s) older than the retention removed", total);
        }
        return total;
    }

    /**
     * For the schedule: a failed sweep is counted, logged with its SQLSTATE (a message may quote a value) and tried at
     * the next one, never the end of the schedule.
     */
    void sweepLogged() {
        try {
            sweep();
        } catch (SQLException e) {
            failures.inc();
            LOG.warn("audit retention: the sweep failed (SQLSTATE {}); tried again at the next", e.getSQLState());
        } catch (RuntimeException e) {
            failures.inc();
            LOG.warn("audit retention: the sweep failed ({}); tried again at the next", e.getClass().getSimpleName());
        }
    }

    private long purgeBatch() throws SQLException {
        try (var connection = postgres.getConnection();
                var statement = connection.prepareStatement("SELECT purge_expired_audit(?)")) {
            statement.setInt(1, BATCH);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
