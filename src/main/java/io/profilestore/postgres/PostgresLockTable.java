package io.profilestore.postgres;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.Lease;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.LockTable;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.RecordTransaction;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The lock table in PostgreSQL ({@code entity_lock}): one row per entity ever locked, free when its holder is
 * null or its lease has run out.
 *
 * <ul>
 *   <li>{@link #acquire} takes every entity of a request in one statement or none of them, and never waits behind
 *   a holder: a taken entity fails the request at once.</li>
 *   <li>{@link #renew} renews the lease first in the transaction that records the change, just before the
 *   Cassandra write: a holder that lost its lease learns it there and writes nothing.</li>
 *   <li>{@link #release} frees what is still ours.</li>
 * </ul>
 *
 * The fence of an entity only grows: {@code greatest(now in microseconds, previous fence + 1)}, taken from
 * PostgreSQL's clock so that the clocks of the API instances play no part.
 *
 * <p>Of a change's commits only its record's ({@link PostgresRecordTransactions}) needs PostgreSQL to have made it durable (its disk, and a
 * synchronous standby where there is one). Taking and freeing locks commit asynchronously: PostgreSQL writes its log
 * in order, so the record's commit makes every earlier commit durable with it, and a lock taken and lost in a crash
 * is found gone when the change is recorded, before anything is written; a release lost in a crash refuses the
 * next writer until the lease runs out, and brings back what completes its change
 * ({@link PostgresUnsettledChanges}): the next holder writes the confirmed rows again as they are. A change Cassandra refused is forgotten durably instead
 * ({@link PostgresUnsettledChanges#forget}), as its answer then says nothing was changed. ({@link #raiseFence}, when it
 * raises, commits on its own and still waits.)
 */
public class PostgresLockTable implements LockTable {

    /**
     * Takes the free entities and returns them with their fences. Its transaction's settings come with it, from a
     * subquery evaluated before any row is inserted (the sort needs every row first): a short wait for a lock row
     * another transaction is writing ({@code lock_timeout}, which then fails the statement), and no wait at its commit
     * ({@code set_config(..., true)} lasts until the end of the transaction, whose commit reads it).
     */
    private static final String ACQUIRE = """
            INSERT INTO entity_lock AS l (entity, holder, lease_until, fence)
            SELECT e, ?, clock_timestamp() + make_interval(secs => ?),
                   greatest((extract(epoch FROM clock_timestamp()) * 1000000)::bigint, ?)
              FROM unnest(?::text[]) AS e,
                   (SELECT set_config('lock_timeout', ?, true),
                           set_config('synchronous_commit', 'off', true)) AS settings
             ORDER BY e
            ON CONFLICT (entity) DO UPDATE
               SET holder = excluded.holder,
                   lease_until = excluded.lease_until,
                   fence = greatest(excluded.fence, l.fence + 1)
             WHERE l.holder IS NULL OR l.lease_until < clock_timestamp()
            RETURNING entity, fence
            """;

    private static final String ALIGN_FENCES = "UPDATE entity_lock SET fence = ? WHERE entity = ANY(?::text[]) AND holder = ?";

    private static final String RENEW = """
            UPDATE entity_lock SET lease_until = clock_timestamp() + make_interval(secs => ?)
             WHERE entity = ANY(?::text[]) AND holder = ? AND lease_until > clock_timestamp()
            """;


    private static final String RAISE_FENCE = """
            UPDATE entity_lock SET fence = greatest(fence, ?)
             WHERE entity = ANY(?::text[]) AND holder = ? AND lease_until > clock_timestamp()
            """;

    /**
     * Frees the locks in one statement that also makes its own commit asynchronous: set_config(..., true) lasts
     * until the end of the statement's implicit transaction, whose commit reads it.
     */
    /** Frees the locks, and forgets what would complete the holder's change: Cassandra confirmed it, or it failed. */
    private static final String RELEASE = """
            WITH confirmed AS (DELETE FROM unsettled_change WHERE holder = ?)
            UPDATE entity_lock SET holder = NULL, lease_until = NULL
              FROM (SELECT set_config('synchronous_commit', 'off', true)) AS asynchronous_commit
             WHERE entity = ANY(?::text[]) AND holder = ?
            """;

    /** How long the lock statement waits for a row another transaction is writing (its own statement's time). */
    private static final String LOCK_ROW_WAIT = "100ms";
    /** PostgreSQL's SQLSTATE when lock_timeout ran out. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    /** The meter of lock conflicts: {@code locks.conflicts}, each time an entity asked for was held by another. */
    public static final String CONFLICTS = "locks.conflicts";

    private final DataSource dataSource;
    private final Duration lease;
    private final Meter conflicts;

    public PostgresLockTable(DataSource dataSource, Duration lease, MetricRegistry metrics) {
        this.dataSource = dataSource;
        this.lease = lease;
        this.conflicts = metrics.meter(CONFLICTS);
    }

    @Override
    public Duration lease() {
        return lease;
    }

    /**
     * Locks all the entities or none. Entities are taken in sorted order, so two requests over overlapping sets
     * cannot deadlock; a concurrent insert of the same new row is waited for only as long as that one statement.
     *
     * @throws EntitiesLockedException when any of them is held by another request
     */
    @Override
    public Lease acquire(Collection<String> wanted) {
        return take(UUID.randomUUID(), List.of(), wanted, System.nanoTime());
    }

    /**
     * Locks more entities for a holder that already has some, all or none; then every entity of both sets gets the
     * same fence, above all of theirs. What the holder had stays locked either way.
     *
     * @throws EntitiesLockedException when any of the new ones is held by another request
     */
    @Override
    public Lease acquireMore(Lease held, Collection<String> wanted) {
        var more = new TreeSet<>(wanted);
        more.removeAll(held.entities());
        if (more.isEmpty()) {
            return held;
        }
        return take(held.holder(), held.entities(), more, held.acquiredNanos());
    }

    private Lease take(UUID holder, List<String> alreadyHeld, Collection<String> wanted, long started) {
        var entities = List.copyOf(new TreeSet<>(wanted));
        // one entity taken afresh, as every single-profile change takes its lock: taken or not, never in part, so the
        // statements are their own implicit transaction and its commit comes with them, in one round trip
        boolean alone = entities.size() == 1 && alreadyHeld.isEmpty();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(alone);
            try {
                var taken = new HashSet<String>();
                long[] fences = {Long.MIN_VALUE, Long.MAX_VALUE};
                var unsettled = new HashSet<UUID>();
                // locks added to a holder's set never get a fence below the one it has
                long floor = alreadyHeldFence(connection, holder, alreadyHeld) + 1;
                var pipeline = new Pipeline().add(ACQUIRE, params -> params.set(holder).set(seconds(lease))
                        .set(floor).array("text", entities).set(LOCK_ROW_WAIT), (rows, updated) -> {
                            while (rows.next()) {
                                taken.add(rows.getString(1));
                                fences[0] = Math.max(fences[0], rows.getLong(2));
                                fences[1] = Math.min(fences[1], rows.getLong(2));
                            }
                        });
                // its own statement, after the lock's: a change of another holder recorded on these entities before
                // stays as it is now, since no holder records once its lock was taken (its renewal waits for this
                // lock row and then finds it taken); a statement begun before the lock's would not see one recorded
                // while the lock statement waited for that row
                PostgresUnsettledChanges.holdersOf(pipeline, holder, entities, unsettled);
                pipeline.send(connection);
                long fence = fences[0];
                if (taken.size() < entities.size()) {
                    if (!alone) {
                        connection.rollback();
                    }
                    var locked = new ArrayList<>(entities);
                    locked.removeAll(taken);
                    conflicts.mark();
                    throw new EntitiesLockedException(locked);
                }
                var all = new TreeSet<>(alreadyHeld);
                all.addAll(entities);
                if (fences[1] != fence || !alreadyHeld.isEmpty()) {
                    // one write timestamp for all: every entity's fence moves up to the largest
                    try (var statement = connection.prepareStatement(ALIGN_FENCES)) {
                        statement.setLong(1, fence);
                        statement.setArray(2, connection.createArrayOf("text", all.toArray()));
                        statement.setObject(3, holder);
                        statement.executeUpdate();
                    }
                }
                if (!alone) {
                    connection.commit();
                }
                return new Lease(holder, List.copyOf(all), fence, started, unsettled);
            } catch (SQLException e) {
                if (!alone) {
                    rollbackQuietly(connection);
                }
                if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    conflicts.mark();
                    throw new EntitiesLockedException(entities);
                }
                throw e;
            } catch (RuntimeException e) {
                if (!alone) {
                    rollbackQuietly(connection);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not take locks in PostgreSQL", e);
        }
    }

    private static long alreadyHeldFence(Connection connection, UUID holder, List<String> entities) throws SQLException {
        if (entities.isEmpty()) {
            return 0;
        }
        try (var statement = connection.prepareStatement(
                "SELECT coalesce(max(fence), 0) FROM entity_lock WHERE entity = ANY(?::text[]) AND holder = ?")) {
            statement.setArray(1, connection.createArrayOf("text", entities.toArray()));
            statement.setObject(2, holder);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * Raises the fence of a holder's locks to at least {@code floor}: the fence then stays above every write this
     * one replaces, even when PostgreSQL lost the lock rows that carried the fence history (a failover with
     * asynchronous replication, a restore) and its clock is behind those writes.
     *
     * @throws LeaseLostException when some lock is no longer ours
     */
    @Override
    public Lease raiseFence(Lease held, long floor) {
        if (held.fence() >= floor) {
            return held;
        }
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(RAISE_FENCE)) {
            statement.setLong(1, floor);
            statement.setArray(2, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(3, held.holder());
            if (statement.executeUpdate() < held.entities().size()) {
                throw new LeaseLostException("the locks ran out before the change was recorded", false);
            }
            return new Lease(held.holder(), held.entities(), floor, held.acquiredNanos());
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not raise the fence in PostgreSQL", e);
        }
    }

    /**
     * Renews the lease, first in the transaction that records the change: a holder that lost its lease learns it when
     * the renewal's answer is read, with the record's other statements ({@link PostgresTransaction#defer}), before
     * the commit is sent, and nothing of the change is committed.
     */
    @Override
    public void renew(RecordTransaction transaction, Lease held) {
        // deferred: sent with the record's other statements, and its answer read before anything is committed
        PostgresTransaction.defer(transaction, RENEW, params -> params.set(seconds(lease))
                .array("text", held.entities()).set(held.holder()), (rows, renewed) -> {
                    if (renewed < held.entities().size()) {
                        throw new LeaseLostException("the locks ran out before the change was recorded", false);
                    }
                });
    }

    /**
     * Frees the locks that are still ours. NOT_OURS: some ran out and were taken by another request, or their rows
     * are gone (a failover lost them), and another request may have written meanwhile. Never throws: a lock that
     * cannot be freed now (UNKNOWN) runs out.
     */
    @Override
    public Release release(Lease held) {
        try (Connection connection = dataSource.getConnection();
                var statement = connection.prepareStatement(RELEASE)) {
            statement.setObject(1, held.holder());
            statement.setArray(2, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(3, held.holder());
            return statement.executeUpdate() == held.entities().size() ? Release.RELEASED : Release.NOT_OURS;
        } catch (SQLException e) {
            return Release.UNKNOWN;
        }
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; PostgreSQL rolls back on its own
        }
    }
}
