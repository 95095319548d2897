package io.profilestore.audit;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Enforces the audit trail's retention: removes the records older than {@code audit.retention}, with their outcomes.
 * The service's role cannot delete a record, nor change the retention; it asks {@code purge_expired_audit}, a function
 * of the trail's owner that removes only what the retention, written by {@code migrate}, lets go (V20). Every API
 * instance sweeps, a batch at a time; two at once take different records.
 */
public class AuditRetention {

    private static final Logger LOG = LoggerFactory.getLogger(AuditRetention.class);
    static final int BATCH = 5_000;

    private final DataSource postgres;
    private final Counter purged;

    public AuditRetention(DataSource postgres, MetricRegistry metrics) {
        this.postgres = postgres;
        this.purged = metrics.counter("audit.retention.purged");
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

    /** For a scheduler: a failed sweep is logged and tried at the next one, never the end of the schedule. */
    public void sweepLogged() {
        try {
            sweep();
        } catch (SQLException | RuntimeException e) {
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
