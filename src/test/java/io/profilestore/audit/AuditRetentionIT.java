package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The audit trail is kept for audit.retention and no longer: the service's sweep removes what is older, with its
 * outcome, and nothing younger; the service's own role can neither delete a record nor shorten the retention.
 */
class AuditRetentionIT {

    static final DataSource OWNER = TestStack.asOwner();
    static final DataSource SERVICE = TestStack.backends().postgres();

    @Test
    void theSweepRemovesWhatIsOlderThanTheRetentionAndNothingYounger() throws Exception {
        String actor = "retention-" + UUID.randomUUID();
        long expired = insert(actor, "1900 days");
        long kept = insert(actor, "1800 days");
        outcome(expired);
        outcome(kept);

        var metrics = new MetricRegistry();
        long removed = new AuditRetention(SERVICE, metrics).sweep();

        assertThat(removed).isGreaterThanOrEqualTo(1);
        assertThat(metrics.counter("audit.retention.purged").getCount()).isEqualTo(removed);
        assertThat(count("SELECT count(*) FROM audit_record WHERE id = " + expired)).isZero();
        assertThat(count("SELECT count(*) FROM audit_outcome WHERE record_id = " + expired)).isZero();
        assertThat(count("SELECT count(*) FROM audit_record WHERE id = " + kept)).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM audit_outcome WHERE record_id = " + kept)).isEqualTo(1);
        // the retention is the configuration's, written by migrate
        assertThat(count("SELECT extract(day FROM keep)::bigint FROM audit_retention"))
                .isEqualTo(TestStack.configuration().audit.retention.toJavaDuration().toDays());
    }

    @Test
    void theServicesRoleCannotDeleteARecordNorShortenTheRetention() {
        assertThatThrownBy(() -> execute(SERVICE, "UPDATE audit_retention SET keep = interval '30 days'"))
                .isInstanceOf(SQLException.class).satisfies(e -> assertThat(((SQLException) e).getSQLState())
                        .isEqualTo("42501"));
        assertThatThrownBy(() -> execute(SERVICE, "DELETE FROM audit_retention"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        assertThatThrownBy(() -> execute(SERVICE, "DELETE FROM audit_record WHERE id = -1"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        // and not even the owner keeps less than 30 days: the database refuses it
        assertThatThrownBy(() -> execute(OWNER, "UPDATE audit_retention SET keep = interval '29 days'"))
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"));
    }

    /** A record written that long ago, as only the owner can (the service's role may not choose a record's time). */
    private static long insert(String actor, String ago) throws SQLException {
        try (var connection = OWNER.getConnection(); var statement = connection.prepareStatement("""
                INSERT INTO audit_record (at, actor, actor_kind, roles, action, request, pids, status)
                VALUES (now() - ?::interval, ?, 'API_KEY', '{operator}', 'GET /v1/profiles/{pid}', '/v1/profiles', '{}', 200)
                RETURNING id""")) {
            statement.setString(1, ago);
            statement.setString(2, actor);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static void outcome(long record) throws SQLException {
        execute(OWNER, "INSERT INTO audit_outcome (record_id, status) VALUES (" + record + ", 200)");
    }

    private static long count(String query) throws SQLException {
        try (var connection = OWNER.getConnection(); var statement = connection.createStatement();
                var rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static void execute(DataSource source, String sql) throws SQLException {
        try (var connection = source.getConnection(); var statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
