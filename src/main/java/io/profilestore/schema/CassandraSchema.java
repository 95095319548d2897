package io.profilestore.schema;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.profilestore.backends.CassandraFactory;
import io.profilestore.backends.ReplicationSettings;
import java.util.Map;
import java.util.TreeMap;
import org.cognitor.cassandra.migration.Database;
import org.cognitor.cassandra.migration.MigrationConfiguration;
import org.cognitor.cassandra.migration.MigrationRepository;
import org.cognitor.cassandra.migration.MigrationTask;

/**
 * Creates the keyspace with the configured replication, then applies the numbered files of {@code cql/}
 * ({@code <version>_<name>.cql}) once each through cassandra-migration, which records them in
 * {@code <keyspace>.schema_migration}.
 */
public final class CassandraSchema {

    /** Where the files of the repository's {@code cql/} folder sit on the classpath. */
    public static final String SCRIPT_PATH = "cql";

    public record Result(String keyspace, boolean keyspaceCreated, int versionBefore, int versionAfter,
            String replicationNote) {
        public int applied() {
            return versionAfter - versionBefore;
        }
    }

    private CassandraSchema() {
    }

    /**
     * Opens a session of its own: the migration library switches its session to the keyspace with {@code USE}
     * and closes it when done.
     */
    public static Result migrate(CassandraFactory settings) {
        try (CqlSession session = settings.buildForSchemaChanges(new MetricRegistry())) {
            return migrate(session, settings);
        }
    }

    private static Result migrate(CqlSession session, CassandraFactory settings) {
        String keyspace = settings.keyspace;
        boolean existed = session.execute(SimpleStatement.newInstance(
                "SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?", keyspace)).one() != null;
        String note = "";
        if (!existed) {
            session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                    + " WITH replication = " + settings.replication.toCql()));
            session.checkSchemaAgreement();
        } else {
            note = replicationDifference(session, settings);
        }
        if (settings.hasSeparateMigrationUser()) {
            grantServiceRole(session, settings);
        }
        var database = new Database(session, new MigrationConfiguration().withKeyspaceName(keyspace));
        var scripts = new MigrationRepository(SCRIPT_PATH);
        int before = database.getVersion();
        // applies what is missing, then closes the database and with it the session
        new MigrationTask(database, scripts).migrate();
        return new Result(keyspace, !existed, before, Math.max(before, scripts.getLatestVersion()), note);
    }

    /**
     * The service's role, made or brought up to date (its password follows the configuration, so a rotated Secret
     * takes effect at the next migrate), with reads and writes on the keyspace's tables, those of later versions
     * included, and nothing else: no schema changes, no other keyspace, no roles.
     */
    private static void grantServiceRole(CqlSession session, CassandraFactory settings) {
        String role = quoteName(settings.username);
        String password = "'" + settings.password.replace("'", "''") + "'";
        session.execute("CREATE ROLE IF NOT EXISTS " + role + " WITH PASSWORD = " + password + " AND LOGIN = true");
        session.execute("ALTER ROLE " + role + " WITH PASSWORD = " + password + " AND LOGIN = true");
        for (String permission : new String[] {"SELECT", "MODIFY"}) {
            session.execute("GRANT " + permission + " ON KEYSPACE " + settings.keyspace + " TO " + role);
        }
    }

    private static String quoteName(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Replication is only set when the keyspace is created: changing it later needs a repair, a human's job. */
    private static String replicationDifference(CqlSession session, CassandraFactory settings) {
        var row = session.execute(SimpleStatement.newInstance(
                "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", settings.keyspace)).one();
        if (row == null) {
            return "";
        }
        Map<String, String> actual = new TreeMap<>(row.getMap("replication", String.class, String.class));
        Map<String, String> wanted = new TreeMap<>();
        var replication = settings.replication;
        if (replication.strategy == ReplicationSettings.Strategy.SimpleStrategy) {
            wanted.put("class", "org.apache.cassandra.locator.SimpleStrategy");
            wanted.put("replication_factor", String.valueOf(replication.replicationFactor));
        } else {
            wanted.put("class", "org.apache.cassandra.locator.NetworkTopologyStrategy");
            replication.dataCenters.forEach((dc, n) -> wanted.put(dc, String.valueOf(n)));
        }
        return actual.equals(wanted) ? ""
                : "keyspace replication is " + actual + ", configuration asks " + wanted
                        + "; left as it is (ALTER KEYSPACE, then a full repair, changes it)";
    }
}
