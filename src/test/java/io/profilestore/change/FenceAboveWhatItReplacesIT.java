package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Fences never go backwards, whatever happens to PostgreSQL. Its lock rows carry the fence history; lose them (a
 * failover with asynchronous replication, a restore from a backup) on a primary whose clock is behind the last
 * write, and the next fence is below the write time of the rows it replaces: the change would be acknowledged
 * and lose last-write-wins. Every change therefore takes a fence above the write time of the rows it read.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class FenceAboveWhatItReplacesIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    /** An hour ahead of PostgreSQL's clock, in microseconds: the write time a primary with a fast clock gave. */
    static final long AHEAD = 3_600_000_000L;

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    @Test
    void aChangeAfterTheLockRowsWereLostReplacesARowWrittenAheadOfTheClock() throws Exception {
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        rowsWrittenAheadAndLocksLost(pid);

        var reply = api.put(pid, etag(1), "{\"surname\": \"Соколова\"}");

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var read = api.get(pid);
        assertThat(read.version()).as("the acknowledged change stands").isEqualTo(2);
        assertThat(read.json().path("data").path("surname").asText()).isEqualTo("Соколова");
    }

    @Test
    void aMoveAfterTheLockRowsWereLostMovesTheProfile() throws Exception {
        var created = api.create("{\"surname\": \"Орлова\"}");
        var pid = created.pid();
        var target = UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
        rowsWrittenAheadAndLocksLost(pid);

        var reply = api.move(pid, etag(1), target);

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(api.get(pid).json().path("uid").asText()).isEqualTo(target.toString());
        assertThat(api.user(target).json().path("profiles").findValuesAsText("pid")).contains(pid.toString());
    }

    /** The profile's rows rewritten as they are, an hour ahead; its and its user's lock rows gone. */
    private static void rowsWrittenAheadAndLocksLost(UUID pid) throws SQLException {
        var cassandra = TestStack.backends().cassandra();
        var row = cassandra.execute(SimpleStatement.newInstance(
                "SELECT uid, version, data, created_at, updated_at, WRITETIME(version) AS written FROM profiles.profile"
                        + " WHERE pid = ?", pid)).one();
        long ahead = row.getLong("written") + AHEAD;
        cassandra.execute(SimpleStatement.newInstance("INSERT INTO profiles.profile (pid, uid, version, data, created_at,"
                        + " updated_at) VALUES (?, ?, ?, ?, ?, ?)", pid, row.getUuid("uid"), row.getLong("version"),
                row.getString("data"), row.getInstant("created_at"), row.getInstant("updated_at"))
                .setQueryTimestamp(ahead));
        cassandra.execute(SimpleStatement.newInstance("INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)",
                row.getUuid("uid"), pid).setQueryTimestamp(ahead));
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("DELETE FROM entity_lock WHERE entity = ANY(?)")) {
            statement.setArray(1, connection.createArrayOf("text",
                    new String[] {"profile:" + pid, "user:" + row.getUuid("uid")}));
            assertThat(statement.executeUpdate()).isEqualTo(2);
        }
    }
}
