package io.profilestore.contracts;

import io.profilestore.audit.AuditLog;
import io.profilestore.change.AuditAppender;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.OutboxWriter;
import io.profilestore.change.RecordTransactions;
import io.profilestore.postgres.PostgresOutbox;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * The contract of the transaction that records a change, its outbox and its audit trail, held against PostgreSQL
 * ({@code postgres.PostgresRecordTransactions}, {@code postgres.PostgresOutbox}, {@code audit.AuditLog}). The
 * outbox is read by its table (the relay would publish other tests' records); the audit trail by its query.
 */
class RecordTransactionsIT extends RecordTransactionsContract {

    private final DataSource postgres = TestStack.backends().postgres();
    private final PostgresRecordTransactions transactions = new PostgresRecordTransactions(postgres);
    private final PostgresOutbox outbox = new PostgresOutbox(postgres);
    private final AuditLog audit = new AuditLog(postgres);

    @Override
    RecordTransactions transactions() {
        return transactions;
    }

    @Override
    OutboxWriter outbox() {
        return outbox;
    }

    @Override
    AuditAppender audit() {
        return audit;
    }

    @Override
    List<OutboxRecord> outboxOf(UUID pid) {
        try (var connection = postgres.getConnection(); var statement = connection.prepareStatement(
                "SELECT entity_type, version, fence, erased FROM outbox WHERE entity_id = ? ORDER BY id")) {
            statement.setObject(1, pid);
            var records = new ArrayList<OutboxRecord>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    records.add(new OutboxRecord(rows.getString(1), pid, rows.getLong(2), rows.getLong(3),
                            rows.getBoolean(4)));
                }
            }
            return records;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    List<Audited> auditOf(UUID pid) {
        var oldestFirst = new ArrayList<>(audit.query(null, pid, null, null, null, 100));
        Collections.reverse(oldestFirst);
        return oldestFirst.stream().map(entry -> new Audited(entry.actor(), entry.actorKind(), entry.roles(),
                entry.action(), entry.request(), entry.pids(), entry.requestId(), applied(entry.status()))).toList();
    }

    /** The status a system change's outcome is written with (AuditLog.outcome): 200 applied, 503 not. */
    private static Boolean applied(Integer status) {
        if (status == null) {
            return null;
        }
        if (status != 200 && status != 503) {
            throw new AssertionError("not a system change's outcome: " + status);
        }
        return status == 200;
    }

    /** The relay of a later test class would publish the case's records: they are taken away. */
    @AfterEach
    void clearTheOutbox() throws SQLException {
        try (var connection = postgres.getConnection();
                var statement = connection.prepareStatement("DELETE FROM outbox WHERE entity_id = ANY(?)")) {
            statement.setArray(1, connection.createArrayOf("uuid", pids.toArray()));
            statement.executeUpdate();
        }
    }
}
