package io.profilestore.postgres;

import io.profilestore.change.Lease;
import io.profilestore.change.LockTable.Release;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.RecordTransaction;
import io.profilestore.change.UnsettledChanges;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The changes of profiles that may still land ({@code unsettled_change}): recorded, and not yet confirmed by
 * Cassandra, with what completes them (their rows, records and writer). One is written in the transaction that
 * records the change ({@link #toComplete}) and removed when its locks are freed after the write was confirmed
 * ({@link PostgresLockTable#release}); one left behind is completed by the next holder of any of its locks.
 */
public class PostgresUnsettledChanges implements UnsettledChanges {

    private static final String PROFILE = "profile:";

    /** Frees the locks, what completes the change left in place (the locks' statement, as {@link PostgresLockTable#release}). */
    private static final String RELEASE_ONLY = """
            UPDATE entity_lock SET holder = NULL, lease_until = NULL
              FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE entity = ANY(?::text[]) AND holder = ?
            """;

    /**
     * Forgets what completes the change and frees the locks, in one transaction PostgreSQL makes durable before it
     * answers: a change Cassandra surely did not apply is said to have changed nothing only once nobody can complete it.
     */
    private static final String FORGET_AND_RELEASE = """
            WITH failed AS (DELETE FROM unsettled_change WHERE holder = ?)
            UPDATE entity_lock SET holder = NULL, lease_until = NULL WHERE entity = ANY(?::text[]) AND holder = ?
            """;

    private final DataSource dataSource;

    public PostgresUnsettledChanges(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * In the transaction recording the change, under every profile it writes or records, so that any lock of one
     * finds it; a later change of the same holder (a settler's, then its own) takes its place.
     */
    @Override
    public void keep(RecordTransaction transaction, Lease held, Completion completion) {
        // deferred: sent with the record's other statements
        PostgresTransaction.defer(transaction, """
                INSERT INTO unsettled_change (holder, pids, fence, writes, records, writer)
                VALUES (?, ?, ?, ?::jsonb, ?::jsonb, ?)
                ON CONFLICT (holder) DO UPDATE SET pids = excluded.pids, fence = excluded.fence,
                    writes = excluded.writes, records = excluded.records, writer = excluded.writer,
                    revoked_fence = NULL, partial_since = NULL, recorded_at = now()
                """, params -> params.set(held.holder()).array("uuid", completion.pids()).set(held.fence())
                        .set(RowWritesJson.writes(completion.writes())).set(RowWritesJson.records(completion.records()))
                        .set(completion.writer()), Pipeline.IGNORED);
    }

    /**
     * The other holders with a change that may still land on one of these entities' profiles, asked right after the
     * statement that takes their locks, into {@code into}: a lock of such a change is free only when its holder died,
     * froze past its lease, or kept it until the lease ran out because its write was not confirmed. Every lock taken asks, so the table's GIN index
     * of pids answers it (V17); the table holds the changes under way and those left behind, which the sweep settles
     * ({@link #leftBehind}).
     */
    static void holdersOf(Pipeline pipeline, UUID holder, Collection<String> entities, Set<UUID> into) {
        var pids = entities.stream().filter(entity -> entity.startsWith(PROFILE))
                .map(entity -> UUID.fromString(entity.substring(PROFILE.length()))).toList();
        if (pids.isEmpty()) {
            return;
        }
        pipeline.add("SELECT holder FROM unsettled_change WHERE pids && ?::uuid[] AND holder <> ?",
                params -> params.array("uuid", pids).set(holder), (rows, updated) -> {
                    while (rows.next()) {
                        into.add(Sql.firstUuid(rows));
                    }
                });
    }

    /**
     * The profiles of the changes recorded before {@code age} ago and still unsettled, the oldest first, at most
     * {@code limit}: their writers are long gone (a change holds its locks for a lease), and a change of one of those
     * profiles would settle them first, were there one. The sweep settles them instead.
     */
    @Override
    public List<List<UUID>> leftBehind(Duration age, int limit) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT pids FROM unsettled_change WHERE recorded_at < now() - make_interval(secs => ?)
                         ORDER BY recorded_at LIMIT ?
                        """)) {
            statement.setDouble(1, age.toMillis() / 1000.0);
            statement.setInt(2, limit);
            return Sql.rows(statement, new ArrayList<List<UUID>>(),
                    rows -> List.of((UUID[]) rows.getArray(1).getArray()));
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read the unsettled changes in PostgreSQL", e);
        }
    }

    @Override
    public Optional<Unsettled> of(UUID holder) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT pids, fence, revoked_fence, extract(epoch FROM "
                        + "clock_timestamp() - partial_since), writes, records, writer FROM unsettled_change WHERE holder = ?")) {
            statement.setObject(1, holder);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                var pids = new ArrayList<>(Arrays.asList((UUID[]) rows.getArray(1).getArray()));
                long fence = rows.getLong(2);
                Long revoked = rows.getObject(3, Long.class);
                double partFor = rows.getDouble(4);
                var part = rows.wasNull() ? null : Duration.ofMillis((long) (partFor * 1000));
                return Optional.of(new Unsettled(holder, pids, fence, revoked, part, completion(rows)));
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read an unsettled change in PostgreSQL", e);
        }
    }

    private static Completion completion(ResultSet rows) throws SQLException {
        String writes = rows.getString(5);
        if (writes == null) {
            return null;
        }
        return new Completion(RowWritesJson.writes(writes), RowWritesJson.records(rows.getString(6)),
                rows.getObject(7, UUID.class));
    }

    @Override
    public void foundInPart(UUID holder) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(
                        "UPDATE unsettled_change SET partial_since = coalesce(partial_since, clock_timestamp()) WHERE holder = ?")) {
            statement.setObject(1, holder);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not record an unsettled change in PostgreSQL", e);
        }
    }

    /**
     * In the transaction that renews the settler's lease just before it writes the rows again at {@code fence}: from
     * then on only that fence on every row settles the change (a row at the batch's own fence may be the batch landed
     * after the rewrite was sent, not the batch standing).
     */
    @Override
    public void revoke(RecordTransaction transaction, UUID holder, long fence) {
        PostgresTransaction.run(transaction, connection -> {
            try (var statement = connection.prepareStatement(
                    "UPDATE unsettled_change SET revoked_fence = ? WHERE holder = ?")) {
                statement.setLong(1, fence);
                statement.setObject(2, holder);
                statement.executeUpdate();
            }
        });
    }

    @Override
    public Release releaseLeavingItToComplete(Lease held) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(RELEASE_ONLY)) {
            statement.setArray(1, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(2, held.holder());
            return statement.executeUpdate() == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
        } catch (SQLException e) {
            return Release.UNKNOWN;
        }
    }

    @Override
    public Release forget(Lease held) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(FORGET_AND_RELEASE)) {
            statement.setObject(1, held.holder());
            statement.setArray(2, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(3, held.holder());
            return statement.executeUpdate() == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
        } catch (SQLException e) {
            return Release.UNKNOWN;
        }
    }

    @Override
    public void settled(UUID holder) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("DELETE FROM unsettled_change WHERE holder = ?")) {
            statement.setObject(1, holder);
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not settle a change in PostgreSQL", e);
        }
    }
}
