package io.profilestore.db;

import io.profilestore.db.ChangeLocks.Release;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The changes of several profiles at once that may still land ({@code unsettled_change}): recorded, and not yet
 * confirmed by Cassandra. One is written in the transaction that records the change ({@link EntityLocks#recordChange})
 * and removed when its locks are freed after the write was confirmed; one left behind is settled by the next holder of
 * any of its locks.
 */
public class UnsettledChanges implements UnsettledWrites {

    private static final String PROFILE = "profile:";

    private final DataSource dataSource;

    public UnsettledChanges(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Whether a change may land in part: it writes several profiles in one logged batch, and locks nothing else (a
     * merge's or a move's, which lock users too, are journaled and checked by check-tables instead).
     */
    public static boolean landsInParts(Lease held, List<OutboxRecord> records) {
        return records.stream().filter(r -> r.entityType().equals("profile")).count() >= 2
                && held.entities().stream().allMatch(entity -> entity.startsWith(PROFILE));
    }

    /** In the transaction recording the change; a later change of the same holder takes its place. */
    static void record(Connection connection, Lease held, List<OutboxRecord> records) throws SQLException {
        try (var statement = connection.prepareStatement("""
                INSERT INTO unsettled_change (holder, pids, fence) VALUES (?, ?, ?)
                ON CONFLICT (holder) DO UPDATE SET pids = excluded.pids, fence = excluded.fence, recorded_at = now()
                """)) {
            statement.setObject(1, held.holder());
            statement.setArray(2, connection.createArrayOf("uuid", records.stream()
                    .filter(r -> r.entityType().equals("profile")).map(OutboxRecord::entityId).distinct().toArray()));
            statement.setLong(3, held.fence());
            statement.executeUpdate();
        }
    }

    /**
     * The other holders with a change that may still land on one of these entities' profiles, in the transaction that
     * takes their locks: a lock of such a change is free only when its holder died, froze past its lease, or kept it
     * until the lease ran out because its write was not confirmed. Every lock taken asks, so the table's GIN index
     * of pids answers it (V17); the table holds the changes under way and those left behind, which the sweep settles
     * ({@link #leftBehind}).
     */
    static Set<UUID> holdersOf(Connection connection, UUID holder, Collection<String> entities) throws SQLException {
        var pids = entities.stream().filter(entity -> entity.startsWith(PROFILE))
                .map(entity -> UUID.fromString(entity.substring(PROFILE.length()))).toArray();
        if (pids.length == 0) {
            return Set.of();
        }
        try (var statement = connection.prepareStatement(
                "SELECT holder FROM unsettled_change WHERE pids && ?::uuid[] AND holder <> ?")) {
            statement.setArray(1, connection.createArrayOf("uuid", pids));
            statement.setObject(2, holder);
            return Sql.rows(statement, new HashSet<UUID>(), Sql::firstUuid);
        }
    }

    /**
     * The profiles of the changes recorded before {@code age} ago and still unsettled, the oldest first, at most
     * {@code limit}: their writers are long gone (a change holds its locks for a lease), and a change of one of those
     * profiles would settle them first, were there one. The sweep settles them instead.
     */
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
                var statement = connection.prepareStatement("SELECT pids, fence, revoked_fence, "
                        + "extract(epoch FROM clock_timestamp() - partial_since) FROM unsettled_change WHERE holder = ?")) {
            statement.setObject(1, holder);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                var pids = new ArrayList<>(Arrays.asList((UUID[]) rows.getArray(1).getArray()));
                long fence = rows.getLong(2);
                Long revoked = rows.getObject(3, Long.class);
                double partFor = rows.getDouble(4);
                return Optional.of(new Unsettled(holder, pids, fence, revoked,
                        rows.wasNull() ? null : Duration.ofMillis((long) (partFor * 1000))));
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read an unsettled change in PostgreSQL", e);
        }
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
    public Journal revoke(UUID holder, long fence) {
        return connection -> {
            try (var statement = connection.prepareStatement(
                    "UPDATE unsettled_change SET revoked_fence = ? WHERE holder = ?")) {
                statement.setLong(1, fence);
                statement.setObject(2, holder);
                statement.executeUpdate();
            }
        };
    }

    /**
     * Keeps the locks until their lease runs out, for a change of several profiles whose write Cassandra did not
     * confirm: the next holder takes them over, and settles that change first. Says whether they were still ours,
     * like {@link EntityLocks#release}.
     */
    @Override
    public Release keepUntilTheLeaseRunsOut(Lease held) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(
                        "SELECT count(*) FROM entity_lock WHERE entity = ANY(?::text[]) AND holder = ?")) {
            statement.setArray(1, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(2, held.holder());
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1) == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
            }
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
