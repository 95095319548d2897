package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.change.Origin;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.testing.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The service's own credentials can append to the audit trail and read it, never change or remove a record:
 * migrate runs as the tables' owner and grants the service's role no more (afterMigrate.sql).
 */
class AuditAppendOnlyIT {

    static Connection asTheService() throws SQLException {
        var endpoints = TestStack.endpoints();
        return DriverManager.getConnection(endpoints.postgresUrl(), endpoints.postgresUser(), endpoints.postgresPassword());
    }

    @Test
    void theServicesRoleCannotAlterARecord() throws Exception {
        var log = new AuditLog(TestStack.backends().postgres());
        var pid = UUID.randomUUID();
        var lookUps = new AuditGroupWriter(TestStack.backends().postgres(), new AuditSettings(), new MetricRegistry());
        lookUps.start();
        try {
            lookUps.record(new AuditEntry(null, null, "append-only-test", "API_KEY", List.of("operator"),
                    "GET /v1/profiles/{pid}", "/v1/profiles/" + pid, List.of(pid), 200));
        } finally {
            lookUps.stop();
        }
        long id = log.query("append-only-test", pid, null, null, null, 1).get(0).id();

        try (var connection = asTheService(); var statement = connection.createStatement()) {
            for (String edit : List.of(
                    "UPDATE audit_record SET actor = 'someone-else' WHERE id = " + id,
                    "DELETE FROM audit_record WHERE id = " + id,
                    "TRUNCATE audit_record CASCADE",
                    "ALTER TABLE audit_record DISABLE TRIGGER ALL",
                    "DROP TABLE audit_outcome",
                    "DROP TABLE audit_record CASCADE",
                    "UPDATE audit_outcome SET status = 500",
                    "DELETE FROM audit_outcome",
                    "INSERT INTO audit_record (at, actor, actor_kind, roles, action, request, pids, status) VALUES ("
                            + "'2020-01-01', 'backdated', 'API_KEY', '{}', 'x', 'x', '{}', 200)",
                    "INSERT INTO audit_record (id, actor, actor_kind, roles, action, request, pids, status) "
                            + "OVERRIDING SYSTEM VALUE VALUES (" + (id + 1_000_000) + ", 'chosen-id', 'API_KEY', '{}', 'x', 'x', '{}', 200)",
                    "CREATE TABLE audit_shadow (id bigint)",
                    "INSERT INTO flyway_schema_history (installed_rank, description, type, script, installed_by, execution_time, success) VALUES (-1, 'x', 'SQL', 'x', 'x', 0, true)")) {
                assertThatThrownBy(() -> statement.execute(edit)).as(edit)
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState())
                                .as("%s: %s", edit, e.getMessage()).isEqualTo("42501"));
            }
        }

        var record = log.query("append-only-test", pid, null, null, null, 1).get(0);
        assertThat(record.actor()).isEqualTo("append-only-test");
        assertThat(record.id()).isEqualTo(id);
    }

    @Test
    void aChangesOutcomeIsAppendedOnce() {
        var log = new AuditLog(TestStack.backends().postgres());
        var pid = UUID.randomUUID();
        long[] id = new long[1];
        var origin = new Origin(UUID.randomUUID(), "append-only-test", "API_KEY", List.of("platform"),
                "PUT /v1/profiles/{pid}", "/v1/profiles/" + pid, null);
        new PostgresRecordTransactions(TestStack.backends().postgres())
                .inOne(transaction -> id[0] = log.append(transaction, origin, List.of(pid)));
        assertThat(log.query("append-only-test", pid, null, null, null, 1).get(0).status()).as("not known yet").isNull();

        // beside an id whose change rolled back (no record): passed over, the other still gets its outcome
        log.recordOutcome(List.of(Long.MAX_VALUE, id[0]), 200);
        log.recordOutcome(List.of(id[0]), 503);

        assertThat(log.query("append-only-test", pid, null, null, null, 1).get(0).status()).isEqualTo(200);
    }
}
