package io.profilestore.bench;

import io.profilestore.core.search.NameNormalizer;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.postgresql.PGConnection;

/**
 * The seed system before Cassandra: one PostgreSQL table with the document as JSONB, a B-tree prefix index on the
 * normalized surname, primary-key reads, the same writes (an update that checks the version). Loaded with the
 * same profiles and the same pids.
 */
final class PostgresBaseline {

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

    /** The same write as the service's PUT: a new document if the version is still the one read. */
    Object update(UUID pid) throws SQLException {
        try (var connection = dataSource.getConnection()) {
            long version;
            try (var read = connection.prepareStatement("SELECT version FROM bench.profile WHERE pid = ?")) {
                read.setObject(1, pid);
                try (var rows = read.executeQuery()) {
                    if (!rows.next()) {
                        throw new IllegalStateException("the PostgreSQL baseline has no profile " + pid);
                    }
                    version = rows.getLong(1);
                }
            }
            try (var write = connection.prepareStatement("""
                    UPDATE bench.profile SET data = ?::jsonb, version = version + 1, updated_at = now()
                     WHERE pid = ? AND version = ?""")) {
                write.setString(1, "{\"surname\": \"Обновлённая\", \"n\": " + ThreadLocalRandom.current().nextInt() + "}");
                write.setObject(2, pid);
                write.setLong(3, version);
                return write.executeUpdate();
            }
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
