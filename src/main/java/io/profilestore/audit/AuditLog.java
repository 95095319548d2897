package io.profilestore.audit;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.profilestore.change.AuditAppender;
import io.profilestore.change.Origin;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.RecordTransaction;
import io.profilestore.postgres.Pipeline;
import io.profilestore.postgres.PostgresTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail in PostgreSQL: changes' records (in the change's transaction) and their outcomes, the
 * statement that records look-ups (which {@link AuditGroupWriter} commits in groups), and the trail's queries.
 */
public class AuditLog implements ChangeOutcomes, AuditAppender {

    private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);

    private static final String INSERT = """
            INSERT INTO audit_record (actor, actor_kind, roles, action, request, pids, status, request_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """;

    /**
     * The same without the id, for a group: one statement whatever the group's size, run once per record in one JDBC
     * batch (one round trip), so that the driver's and the server's prepared statement serves every group. A
     * statement of N value tuples was a text per group size, each parsed and planned anew. The batch is sent as it
     * is as long as the driver's reWriteBatchedInserts stays off (its default; PostgresFactory does not set it), which
     * would rewrite it into tuples again.
     */
    private static final String INSERT_ROW = """
            INSERT INTO audit_record (actor, actor_kind, roles, action, request, pids, status, request_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """;

    /**
     * Appended, never written into the record: the trail is append-only for the service (V9, afterMigrate.sql). Its
     * commit does not wait for the disk: an outcome is a fact added after the answer, and one lost in a crash of
     * PostgreSQL leaves the record's outcome unknown, as a full queue does (docs/design/write-path.md).
     */
    private static final String OUTCOME = """
            INSERT INTO audit_outcome (record_id, status)
            SELECT r.id, ? FROM audit_record r,
                   (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE r.id = ANY(?::bigint[])
            ON CONFLICT (record_id) DO NOTHING
            """;

    /**
     * The meter of audit writes that failed: {@code audit.failures}, a look-up's record (the look-up is refused) or a
     * change's outcome (which stays unknown in the trail).
     */
    public static final String FAILURES = "audit.failures";

    private final DataSource dataSource;
    private final Meter failures;

    public AuditLog(DataSource dataSource) {
        this(dataSource, new MetricRegistry());
    }

    public AuditLog(DataSource dataSource, MetricRegistry metrics) {
        this.dataSource = dataSource;
        this.failures = metrics.meter(FAILURES);
    }

    /**
     * The record of a change, written in the transaction that records the change (its status empty: the outcome is
     * not known yet).
     */
    @Override
    public long append(RecordTransaction transaction, Origin origin, List<UUID> pids) {
        var entry = new AuditEntry(null, null, origin.actor(), origin.actorKind(), origin.roles(), origin.action(),
                origin.request(), pids, null, origin.writer());
        // sent with the record's deferred statements, in one round trip
        return PostgresTransaction.ask(transaction, INSERT, params -> bind(params, entry), rows -> {
            rows.next();
            return rows.getLong(1);
        });
    }

    /**
     * A request's record goes to the request, whose answer's status the audit filter writes; the system's own work
     * has none, so its outcome is written now.
     */
    @Override
    public void outcome(Origin origin, long record, boolean applied) {
        if (origin.isRequest()) {
            origin.requestRecords().accept(record);
            return;
        }
        try {
            recordOutcome(List.of(record), applied ? 200 : 503);
        } catch (RuntimeException e) {
            LOG.warn("the outcome of a system change could not be recorded in the audit trail; it stays unknown there");
        }
    }

    /**
     * Records one entry on a connection of its own, committed when this returns (a command's read of the trail, an
     * import's start); its id, for {@link #recordOutcome} when the entry's status is left empty.
     */
    public long record(AuditEntry entry) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            return insert(connection, entry);
        } catch (SQLException e) {
            failures.mark();
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * Appends the status of change records whose outcome is now known (once: a known status is never changed). An
     * id without a record (its change's transaction rolled back) is passed over, not an error for the others.
     */
    @Override
    public void recordOutcome(List<Long> ids, int status) {
        try (Connection connection = dataSource.getConnection(); var statement = connection.prepareStatement(OUTCOME)) {
            statement.setInt(1, status);
            statement.setArray(2, connection.createArrayOf("bigint", ids.toArray()));
            statement.executeUpdate();
        } catch (SQLException e) {
            failures.mark();
            throw new AuditUnavailableException(e);
        }
    }

    private static long insert(Connection connection, AuditEntry entry) throws SQLException {
        try (var statement = connection.prepareStatement(INSERT)) {
            bind(Pipeline.Params.of(statement), entry);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * Inserts records in one batch of {@link #INSERT_ROW}, in the caller's transaction (the look-ups' group:
     * {@link AuditGroupWriter}); their ids are not read.
     */
    static void insert(Connection connection, List<AuditEntry> entries) throws SQLException {
        try (var statement = connection.prepareStatement(INSERT_ROW)) {
            for (var entry : entries) {
                bind(Pipeline.Params.of(statement), entry);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    private static void bind(Pipeline.Params params, AuditEntry entry) throws SQLException {
        params.set(entry.actor()).set(entry.actorKind()).array("text", entry.roles()).set(entry.action())
                .set(entry.request()).array("uuid", entry.pids()).set(entry.status(), Types.INTEGER)
                .set(entry.requestId());
    }

    /**
     * Records, newest first, that match every criterion given (null: any): an actor, a profile among the pids,
     * a time range; {@code beforeId} pages backwards.
     */
    public List<AuditEntry> query(String actor, UUID pid, Instant from, Instant to, Long beforeId, int limit) {
        String sql = """
                SELECT id, r.at, actor, actor_kind, roles, action, request, pids, coalesce(r.status, o.status), request_id
                  FROM audit_record r LEFT JOIN audit_outcome o ON o.record_id = r.id
                 WHERE (?::text IS NULL OR actor = ?::text)
                   AND (?::uuid IS NULL OR pids @> ARRAY[?::uuid])
                   AND (?::timestamptz IS NULL OR r.at >= ?::timestamptz)
                   AND (?::timestamptz IS NULL OR r.at < ?::timestamptz)
                   AND (?::bigint IS NULL OR id < ?::bigint)
                 ORDER BY id DESC LIMIT ?
                """;
        try (Connection connection = dataSource.getConnection(); var statement = connection.prepareStatement(sql)) {
            statement.setString(1, actor);
            statement.setString(2, actor);
            statement.setObject(3, pid);
            statement.setObject(4, pid);
            statement.setTimestamp(5, from == null ? null : Timestamp.from(from));
            statement.setTimestamp(6, from == null ? null : Timestamp.from(from));
            statement.setTimestamp(7, to == null ? null : Timestamp.from(to));
            statement.setTimestamp(8, to == null ? null : Timestamp.from(to));
            statement.setObject(9, beforeId);
            statement.setObject(10, beforeId);
            statement.setInt(11, limit);
            var found = new ArrayList<AuditEntry>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(new AuditEntry(rows.getLong(1), rows.getTimestamp(2).toInstant(), rows.getString(3),
                            rows.getString(4), List.of((String[]) rows.getArray(5).getArray()), rows.getString(6),
                            rows.getString(7), List.of((UUID[]) rows.getArray(8).getArray()), rows.getObject(9, Integer.class),
                            rows.getObject(10, UUID.class)));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read the audit trail", e);
        }
    }
}
