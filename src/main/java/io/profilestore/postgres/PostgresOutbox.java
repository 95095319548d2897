package io.profilestore.postgres;

import io.profilestore.change.OutboxRecord;
import io.profilestore.change.OutboxWriter;
import io.profilestore.change.RecordTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The outbox table, read by the relay: rows not yet published, taken in id order with {@code SKIP LOCKED} so that
 * several instances relay side by side without two of them taking the same row at once, and marked published in the
 * same transaction once RabbitMQ confirmed them. Delivery is at least once: a row confirmed by RabbitMQ whose
 * transaction then fails to commit is sent again, which the indexer's external versions make harmless.
 */
public class PostgresOutbox implements OutboxWriter {

    /** A recorded change waiting to be published. */
    public record Pending(long id, String entityType, UUID entityId, long version, Long fence, Instant recordedAt,
            boolean erased, Instant leaseUntil) {
    }

    /** Sends a batch; returns normally only once the broker confirmed every message of it. */
    @FunctionalInterface
    public interface Publisher {
        void publish(List<Pending> batch) throws Exception;
    }

    /**
     * The change's record for the indexer, with its writer's lease as just renewed (same clock, same moment), and
     * the moment before which the relay leaves it (null: at once).
     */
    private static final String RECORD = """
            INSERT INTO outbox (entity_type, entity_id, version, fence, erased, lease_until, not_before)
            SELECT t, e, v, f, x, clock_timestamp() + make_interval(secs => ?),
                   clock_timestamp() + make_interval(secs => ?)
              FROM unnest(?::text[], ?::uuid[], ?::bigint[], ?::bigint[], ?::boolean[])
                   WITH ORDINALITY AS r(t, e, v, f, x, n)
             ORDER BY n
            """;

    private static final String TAKE = """
            SELECT id, entity_type, entity_id, version, fence, recorded_at, erased, lease_until FROM outbox
             WHERE published_at IS NULL AND (not_before IS NULL OR not_before <= clock_timestamp())
             ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED
            """;
    /**
     * Its commit does not wait for the disk: a mark lost in a crash of PostgreSQL publishes its rows again, which
     * delivery at least once allows (the indexer's external versions, the stream's ids).
     */
    private static final String MARK = """
            UPDATE outbox SET published_at = clock_timestamp()
              FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE id = ANY(?)
            """;
    private static final String BACKLOG = """
            SELECT count(*), min(recorded_at) FROM outbox
             WHERE published_at IS NULL AND (not_before IS NULL OR not_before <= clock_timestamp())
            """;
    /**
     * Published rows past their retention, the oldest 10,000 at most: found through outbox_published_at, deleted by
     * their place in the table (TID scan), so that neither half of the statement reads the whole outbox. The cut-off
     * is now(), not clock_timestamp(): a volatile function cannot bound an index scan, and the purge then read every
     * entry of the index (or the table) to find nothing due. Ordered by the index: unordered, a LIMIT let a plan
     * that guessed many rows due price a sequential scan as stopping early. Every API pod purges: rows another
     * pod's purge holds are skipped, not waited for.
     */
    /** Rows a purge deletes at most, oldest first. */
    public static final int PURGE_BATCH = 10_000;
    static final String PURGE = """
            DELETE FROM outbox WHERE ctid = ANY(ARRAY(SELECT ctid FROM outbox
             WHERE published_at < now() - make_interval(secs => ?) ORDER BY published_at LIMIT %d
             FOR UPDATE SKIP LOCKED))
            """.formatted(PURGE_BATCH);

    private final DataSource dataSource;

    public PostgresOutbox(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Publishes up to {@code limit} waiting rows; returns how many. A failed publish leaves them waiting. */
    public int relay(int limit, Publisher publisher) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                var batch = new ArrayList<Pending>();
                try (var take = connection.prepareStatement(TAKE)) {
                    take.setInt(1, limit);
                    try (var rows = take.executeQuery()) {
                        while (rows.next()) {
                            var leaseUntil = rows.getTimestamp(8);
                            batch.add(new Pending(rows.getLong(1), rows.getString(2), rows.getObject(3, UUID.class),
                                    rows.getLong(4), rows.getObject(5, Long.class), rows.getTimestamp(6).toInstant(),
                                    rows.getBoolean(7), leaseUntil == null ? null : leaseUntil.toInstant()));
                        }
                    }
                }
                if (!batch.isEmpty()) {
                    publisher.publish(batch);
                    try (var mark = connection.prepareStatement(MARK)) {
                        mark.setArray(1, connection.createArrayOf("bigint", batch.stream().map(Pending::id).toArray()));
                        mark.executeUpdate();
                    }
                }
                connection.commit();
                return batch.size();
            } catch (Exception e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** How many changes wait to be published, and since when. */
    public record Backlog(long count, Instant oldest) {
    }

    public Backlog backlog() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(BACKLOG);
                var rows = statement.executeQuery()) {
            rows.next();
            var oldest = rows.getTimestamp(2);
            return new Backlog(rows.getLong(1), oldest == null ? null : oldest.toInstant());
        }
    }

    /** Deletes published rows older than the retention, at most 10,000 at a time; returns how many. */
    public int purge(Duration retention) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(PURGE)) {
            statement.setDouble(1, retention.toSeconds());
            return statement.executeUpdate();
        }
    }

    @Override
    public void append(RecordTransaction transaction, List<OutboxRecord> records, Duration leaseLeft) {
        // deferred: sent with the record's other statements
        PostgresTransaction.defer(transaction, RECORD, record(records, leaseLeft, null), Pipeline.IGNORED);
    }

    @Override
    public boolean appendAgain(List<OutboxRecord> records) {
        try (Connection connection = dataSource.getConnection()) {
            // the lease is over already: the indexer takes what Cassandra holds
            insert(connection, records, Duration.ZERO, null);
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public boolean appendLater(List<OutboxRecord> records, List<Duration> delays) {
        try (Connection connection = dataSource.getConnection()) {
            for (var delay : delays) {
                insert(connection, records, delay, delay);
            }
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * A change's records for the indexer as one statement whatever their number, with the lease left to their writer
     * and the delay before the relay takes them (null: at once).
     */
    private static Pipeline.Binder record(List<OutboxRecord> records, Duration leaseLeft, Duration notBefore) {
        return params -> params.set(leaseLeft.toMillis() / 1000.0)
                .set(notBefore == null ? null : notBefore.toMillis() / 1000.0, Types.DOUBLE)
                .array("text", records.stream().map(OutboxRecord::entityType).toList())
                .array("uuid", records.stream().map(OutboxRecord::entityId).toList())
                .array("bigint", records.stream().map(OutboxRecord::version).toList())
                .array("bigint", records.stream().map(OutboxRecord::fence).toList())
                .array("boolean", records.stream().map(OutboxRecord::erased).toList());
    }

    private static void insert(Connection connection, List<OutboxRecord> records, Duration leaseLeft,
            Duration notBefore) throws SQLException {
        new Pipeline().add(RECORD, record(records, leaseLeft, notBefore), Pipeline.IGNORED).send(connection);
    }
}
