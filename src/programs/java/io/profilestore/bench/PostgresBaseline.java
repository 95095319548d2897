package io.profilestore.bench;

import io.profilestore.search.NameNormalizer;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;

/**
 * The seed system before Cassandra: one PostgreSQL table with the document as JSONB, a B-tree prefix index on the
 * normalized surname, primary-key reads, and the service's write done in one database ({@link #update}: a lock row
 * as the service's {@code entity_lock}, the version check, the document and an outbox row). Loaded with the same
 * profiles and the same pids; its tables are its own (schema {@code bench}), so the service's relay never reads its
 * outbox.
 */
final class PostgresBaseline {

    /** The service's lock lease (lockLease in profile-store.yml). */
    private static final String LEASE = "5 seconds";

    /** The service's statement: the lock row taken unless another holder's lease still runs; its fence grows. */
    private static final String TAKE_LOCK = """
            INSERT INTO bench.entity_lock AS l (entity, holder, lease_until, fence)
            VALUES (?, ?, clock_timestamp() + interval '%s', (extract(epoch FROM clock_timestamp()) * 1000000)::bigint)
            ON CONFLICT (entity) DO UPDATE
               SET holder = excluded.holder, lease_until = excluded.lease_until, fence = greatest(excluded.fence, l.fence + 1)
             WHERE l.holder IS NULL OR l.lease_until < clock_timestamp()
            RETURNING fence
            """.formatted(LEASE);

    private static final String WRITE = """
            UPDATE bench.profile SET data = ?::jsonb, version = version + 1, updated_at = now()
             WHERE pid = ? AND version = ?
            """;

    private static final String RECORD = """
            INSERT INTO bench.outbox (entity_type, entity_id, version, fence, lease_until)
            VALUES ('profile', ?, ?, ?, clock_timestamp() + interval '%s')
            """.formatted(LEASE);

    /** Freed as the service frees its locks: a commit that does not wait for the disk (a lost one runs out). */
    private static final String RELEASE = """
            UPDATE bench.entity_lock SET holder = NULL, lease_until = NULL
              FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE entity = ? AND holder = ?
            """;

    /** PostgreSQL's SQLSTATE when lock_timeout ran out: the lock row is being written by another transaction. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private final DataSource dataSource;

    private PostgresBaseline(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    static PostgresBaseline prepare(DataSource dataSource, Dataset dataset, NameNormalizer names) throws Exception {
        try (var connection = dataSource.getConnection(); var statement = connection.createStatement()) {
            // loading and indexing a million rows takes minutes on two busy cores, not the pool's 5 s a read
            // (the pool puts the connection's own timeout back when it is returned)
            connection.setNetworkTimeout(Runnable::run, (int) TimeUnit.MINUTES.toMillis(20));
            statement.execute("CREATE SCHEMA IF NOT EXISTS bench");
            // the service's entity_lock and outbox, as its migrations leave them
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS bench.entity_lock (
                        entity text PRIMARY KEY, holder uuid, lease_until timestamptz, fence bigint NOT NULL)""");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS bench.outbox (
                        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, entity_type text NOT NULL,
                        entity_id uuid NOT NULL, version bigint, recorded_at timestamptz NOT NULL DEFAULT now(),
                        published_at timestamptz, fence bigint, erased boolean NOT NULL DEFAULT false,
                        lease_until timestamptz, not_before timestamptz)""");
            statement.execute("CREATE INDEX IF NOT EXISTS outbox_unpublished ON bench.outbox (id) WHERE published_at IS NULL");
            // nothing relays it: emptied each run, as the service's relay keeps its own short
            statement.execute("TRUNCATE bench.outbox");
            statement.execute("""
                    CREATE TABLE IF NOT EXISTS bench.profile (
                        pid uuid PRIMARY KEY, uid uuid NOT NULL, version bigint NOT NULL, data jsonb NOT NULL,
                        surname_key text NOT NULL, phones text[] NOT NULL, updated_at timestamptz NOT NULL)""");
            long rows;
            try (var count = statement.executeQuery("SELECT count(*) FROM bench.profile")) {
                count.next();
                rows = count.getLong(1);
            }
            // the same number of rows is not enough: a run that loaded its profiles afresh (the quick run) has
            // other pids than the table of an earlier run, and its updates would find no row
            if (rows != dataset.size || !holds(connection, dataset.pids.get(0)) || !holds(connection, dataset.pids.get(dataset.size - 1))) {
                statement.execute("DROP INDEX IF EXISTS bench.profile_surname_key");
                statement.execute("DROP INDEX IF EXISTS bench.profile_phones");
                statement.execute("TRUNCATE bench.profile");
                long started = System.nanoTime();
                var copy = connection.unwrap(PGConnection.class).getCopyAPI();
                var generator = dataset.generator();
                var chunk = new StringBuilder();
                for (int i = 0; i < dataset.size; i++) {
                    var data = generator.next().data();
                    chunk.append(dataset.pids.get(i)).append('\t').append(UUID.randomUUID()).append("\t1\t")
                            .append(escape(data.toString())).append('\t')
                            .append(names.sortKey(data.path("surname").asText()).split(" ")[0]).append('\t')
                            .append("{").append(dataset.phones[i]).append("}\t2026-11-30T00:00:00Z\n");
                    if (chunk.length() > 4_000_000 || i == dataset.size - 1) {
                        copy.copyIn("COPY bench.profile FROM STDIN", new StringReader(chunk.toString()));
                        chunk.setLength(0);
                    }
                }
                // the C collation lets one B-tree serve both the prefix LIKE and the ORDER BY ... LIMIT: the search
                // reads its first 20 entries in order instead of sorting every match (text_pattern_ops could not)
                statement.execute("CREATE INDEX profile_surname_key ON bench.profile (surname_key COLLATE \"C\", pid)");
                statement.execute("CREATE INDEX profile_phones ON bench.profile USING gin (phones)");
                statement.execute("ANALYZE bench.profile");
                System.out.printf("PostgreSQL baseline: %,d profiles loaded and indexed in %.1f s%n", dataset.size,
                        (System.nanoTime() - started) / 1e9);
            }
        }
        return new PostgresBaseline(dataSource);
    }

    private static boolean holds(Connection connection, UUID pid) throws SQLException {
        try (var statement = connection.prepareStatement("SELECT 1 FROM bench.profile WHERE pid = ?")) {
            statement.setObject(1, pid);
            try (var rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static String escape(String json) {
        return json.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }

    Object read(UUID pid) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT uid, version, data FROM bench.profile WHERE pid = ?")) {
            statement.setObject(1, pid);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("the PostgreSQL baseline has no profile " + pid);
                }
                return rows.getString(3);
            }
        }
    }

    /** These profiles, with their versions now, for updates that send the version they read. */
    Updatable updatable(List<UUID> pids) throws SQLException {
        var versions = versions(pids);
        return new Updatable(versions.keySet().toArray(UUID[]::new), new ConcurrentHashMap<>(versions));
    }

    private Map<UUID, Long> versions(List<UUID> pids) throws SQLException {
        var versions = new HashMap<UUID, Long>();
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT pid, version FROM bench.profile WHERE pid = ANY(?)")) {
            statement.setArray(1, connection.createArrayOf("uuid", pids.toArray()));
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getObject(1, UUID.class), rows.getLong(2));
                }
            }
        }
        return versions;
    }

    /** The profile's version now. */
    long version(UUID pid) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT version FROM bench.profile WHERE pid = ?")) {
            statement.setObject(1, pid);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("the PostgreSQL baseline has no profile " + pid);
                }
                return rows.getLong(1);
            }
        }
    }

    /**
     * The service's PUT in one database: in one transaction, the profile's lock row taken (409 when another holds
     * it, or is taking it for longer than the service waits), the version checked (412 when it is not
     * {@code expected}, 404 without the profile), the document written, and the change's outbox row; committed, the
     * commit waiting for the disk as the service's record of the change does; then the lock row freed.
     */
    int update(UUID pid, long expected) throws SQLException {
        var holder = UUID.randomUUID();
        String entity = "profile:" + pid;
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                try (var settings = connection.createStatement()) {
                    settings.execute("SET LOCAL lock_timeout = '100ms'"); // the service's wait for a lock row
                }
                long fence;
                try (var take = connection.prepareStatement(TAKE_LOCK)) {
                    take.setString(1, entity);
                    take.setObject(2, holder);
                    try (var rows = take.executeQuery()) {
                        if (!rows.next()) {
                            connection.rollback();
                            return 409;
                        }
                        fence = rows.getLong(1);
                    }
                }
                try (var write = connection.prepareStatement(WRITE)) {
                    write.setString(1, "{\"surname\": \"Обновлённая\", \"n\": " + (expected + 1) + "}");
                    write.setObject(2, pid);
                    write.setLong(3, expected);
                    if (write.executeUpdate() == 0) {
                        boolean exists = holds(connection, pid);
                        connection.rollback();
                        return exists ? 412 : 404;
                    }
                }
                try (var record = connection.prepareStatement(RECORD)) {
                    record.setObject(1, pid);
                    record.setLong(2, expected + 1);
                    record.setLong(3, fence);
                    record.executeUpdate();
                }
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    return 409;
                }
                throw e;
            }
            try (var release = connection.prepareStatement(RELEASE)) {
                release.setString(1, entity);
                release.setObject(2, holder);
                release.executeUpdate();
                connection.commit();
            }
            return 200;
        }
    }

    Object surnamePrefix(String key) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT pid, data FROM bench.profile WHERE surname_key COLLATE "C" LIKE ?
                         ORDER BY surname_key COLLATE "C", pid LIMIT 20""")) {
            statement.setString(1, key.replace("%", "") + "%");
            try (var rows = statement.executeQuery()) {
                int n = 0;
                while (rows.next()) {
                    n++;
                }
                return n;
            }
        }
    }

    Object phone(String digits) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT pid, data FROM bench.profile WHERE phones @> ARRAY[?]::text[]")) {
            statement.setString(1, digits);
            try (var rows = statement.executeQuery()) {
                int n = 0;
                while (rows.next()) {
                    n++;
                }
                return n;
            }
        }
    }
}
