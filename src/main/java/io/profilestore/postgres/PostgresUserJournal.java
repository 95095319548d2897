package io.profilestore.postgres;

import io.profilestore.change.JournalEntry;
import io.profilestore.change.Lease;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The journal of merges and unmerges in PostgreSQL. An operation is written as pending in the transaction that
 * records its change (before Cassandra is written), and marked applied once Cassandra confirmed it; what stays
 * pending was interrupted, and is completed by the recovery.
 */
public class PostgresUserJournal implements UserJournal {

    private final DataSource dataSource;

    public PostgresUserJournal(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * The journal of a merge, for {@link io.profilestore.change.ChangeRunner.Change#commit}; {@code requestId}: the
     * change's writer.
     */
    @Override
    public JournalEntry recordMerge(Operation merge, List<Move> moves, UUID requestId) {
        return entry(connection -> {
            insert(connection, merge, requestId);
            moreMoves(merge.opId(), moves).write(connection);
        });
    }

    /** The journal of an unmerge: its sources count as undone from then on (unless it is abandoned). */
    @Override
    public JournalEntry recordUnmerge(Operation unmerge, List<Move> moves, UUID requestId) {
        return entry(connection -> {
            insert(connection, unmerge, requestId);
            moreMoves(unmerge.opId(), moves).write(connection);
            try (var statement = connection.prepareStatement(
                    "INSERT INTO merge_undo (merge_id, source_uid, unmerge_id) VALUES (?, ?, ?)")) {
                for (UUID source : unmerge.sources()) {
                    statement.setObject(1, unmerge.mergeId());
                    statement.setObject(2, source);
                    statement.setObject(3, unmerge.opId());
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        });
    }

    /**
     * A journal of what a resumed operation moves: beside what was first recorded, and in its place where it moves a
     * profile again (at the version the profile is at now, which may not be the one first recorded); without the
     * profiles {@code notMoved} (first recorded, then moved by hand before the interrupted run's write could land:
     * kept, the user's merge history listed them as the operation's).
     */
    @Override
    public JournalEntry resumedMoves(UUID opId, List<Move> moves, List<UUID> notMoved) {
        return entry(connection -> {
            try (var statement = connection.prepareStatement("DELETE FROM merge_move WHERE merge_id = ? AND pid = ANY(?)")) {
                statement.setObject(1, opId);
                statement.setArray(2, connection.createArrayOf("uuid", notMoved.toArray()));
                statement.executeUpdate();
            }
            moreMoves(opId, moves).write(connection);
        });
    }

    private static JournalEntry entry(PostgresTransaction.SqlWork work) {
        return transaction -> PostgresTransaction.run(transaction, work);
    }

    /** A journal of moves beside those an operation recorded already (a move recorded again takes the new one's place). */
    private static PostgresTransaction.SqlWork moreMoves(UUID opId, List<Move> moves) {
        return connection -> {
            try (var statement = connection.prepareStatement("""
                    INSERT INTO merge_move (merge_id, pid, from_uid, home_uid, to_uid, version) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (merge_id, pid) DO UPDATE SET from_uid = excluded.from_uid, home_uid = excluded.home_uid,
                        to_uid = excluded.to_uid, version = excluded.version
                    """)) {
                for (var move : moves) {
                    statement.setObject(1, opId);
                    statement.setObject(2, move.pid());
                    statement.setObject(3, move.from());
                    statement.setObject(4, move.home());
                    statement.setObject(5, move.to());
                    statement.setLong(6, move.version());
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        };
    }

    private static void insert(Connection connection, Operation operation, UUID requestId) throws SQLException {
        try (var statement = connection.prepareStatement("""
                INSERT INTO user_operation (op_id, kind, target_uid, source_uids, merge_id, state, request_id)
                VALUES (?, ?, ?, ?, ?, 'pending', ?)
                """)) {
            statement.setObject(1, operation.opId());
            statement.setString(2, operation.kind().name().toLowerCase());
            statement.setObject(3, operation.target());
            statement.setArray(4, connection.createArrayOf("uuid", operation.sources().toArray()));
            statement.setObject(5, operation.mergeId());
            statement.setObject(6, requestId);
            statement.executeUpdate();
        }
    }

    /**
     * Abandons a pending operation whose write surely did not happen, but only while its caller still holds every
     * lock of its lease: then no recovery can be resuming it at the same moment. Returns whether it did.
     */
    @Override
    public boolean abandonWhileHolding(UUID opId, Lease held) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        WITH held AS (
                            SELECT count(*) AS locks FROM entity_lock
                             WHERE entity = ANY(?::text[]) AND holder = ? AND lease_until > clock_timestamp())
                        UPDATE user_operation SET state = 'abandoned', finished_at = now()
                         WHERE op_id = ? AND state = 'pending' AND (SELECT locks FROM held) = ?
                        """)) {
            statement.setArray(1, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(2, held.holder());
            statement.setObject(3, opId);
            statement.setInt(4, held.entities().size());
            boolean abandoned = statement.executeUpdate() == 1;
            if (abandoned) {
                try (var undo = connection.prepareStatement("DELETE FROM merge_undo WHERE unmerge_id = ?")) {
                    undo.setObject(1, opId);
                    undo.executeUpdate();
                }
            }
            return abandoned;
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not abandon a user operation in PostgreSQL", e);
        }
    }

    /** Whether the operation is still pending (a resume, under its locks, looks again). */
    @Override
    public boolean isPending(UUID opId) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT state = 'pending' FROM user_operation WHERE op_id = ?")) {
            statement.setObject(1, opId);
            try (var rows = statement.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read a user operation in PostgreSQL", e);
        }
    }

    /**
     * Marks a pending operation done: applied (Cassandra confirmed it) or abandoned (it could not be completed).
     * Returns whether it was pending: false when another instance (the recovery) finished it first.
     */
    @Override
    public boolean finish(UUID opId, boolean applied) {
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            boolean wasPending;
            try (var statement = connection.prepareStatement(
                    "UPDATE user_operation SET state = ?, finished_at = now() WHERE op_id = ? AND state = 'pending'")) {
                statement.setString(1, applied ? "applied" : "abandoned");
                statement.setObject(2, opId);
                wasPending = statement.executeUpdate() == 1;
            }
            if (!applied && wasPending) {
                try (var statement = connection.prepareStatement("DELETE FROM merge_undo WHERE unmerge_id = ?")) {
                    statement.setObject(1, opId);
                    statement.executeUpdate();
                }
            }
            connection.commit();
            return wasPending;
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not finish a user operation in PostgreSQL", e);
        }
    }

    /** Operations pending for longer than the age: interrupted, to be completed. */
    @Override
    public List<Operation> pending(Duration olderThan) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT op_id, kind, target_uid, source_uids, merge_id, request_id FROM user_operation
                         WHERE state = 'pending' AND recorded_at < now() - make_interval(secs => ?)
                         ORDER BY recorded_at
                        """)) {
            statement.setDouble(1, olderThan.toMillis() / 1000.0);
            return Sql.rows(statement, new ArrayList<Operation>(), PostgresUserJournal::operation);
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /**
     * The merge an unmerge of this source from this target would undo: the latest applied merge of the source into
     * the target (whether it was undone already is {@link #undone}'s to say); or, by id, that merge.
     */
    @Override
    public Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId) {
        String sql = """
                SELECT o.op_id, o.kind, o.target_uid, o.source_uids, o.merge_id, o.request_id FROM user_operation o
                 WHERE o.kind = 'merge' AND o.state = 'applied' AND o.target_uid = ?
                   AND (?::uuid IS NULL OR o.op_id = ?::uuid)
                   AND (?::uuid IS NULL OR ?::uuid = ANY(o.source_uids))
                 ORDER BY o.recorded_at DESC LIMIT 1
                """;
        try (var connection = dataSource.getConnection(); var statement = connection.prepareStatement(sql)) {
            statement.setObject(1, target);
            statement.setObject(2, mergeId);
            statement.setObject(3, mergeId);
            statement.setObject(4, source);
            statement.setObject(5, source);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(operation(rows)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /** The sources of a merge that an unmerge already undid (or is undoing). */
    @Override
    public List<UUID> undone(UUID mergeId) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT source_uid FROM merge_undo WHERE merge_id = ?")) {
            statement.setObject(1, mergeId);
            return Sql.rows(statement, new ArrayList<UUID>(), Sql::firstUuid);
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /** What an operation moved. (Moves journaled before homes were kept have none: their home is where they came from.) */
    @Override
    public List<Move> moves(UUID opId) {
        try (var connection = dataSource.getConnection()) {
            return moves(connection, opId);
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    static List<Move> moves(Connection connection, UUID opId) throws SQLException {
        try (var statement = connection.prepareStatement("""
                SELECT m.pid, m.from_uid, coalesce(m.home_uid, m.from_uid), coalesce(m.to_uid, o.target_uid),
                       coalesce(m.version, 0)
                  FROM merge_move m JOIN user_operation o ON o.op_id = m.merge_id
                 WHERE m.merge_id = ? ORDER BY m.pid
                """)) {
            statement.setObject(1, opId);
            return Sql.rows(statement, new ArrayList<Move>(), rows -> new Move(rows.getObject(1, UUID.class),
                    rows.getObject(2, UUID.class), rows.getObject(3, UUID.class), rows.getObject(4, UUID.class),
                    rows.getLong(5)));
        }
    }

    /**
     * Every user merged into this one, directly or through others, by a merge applied or pending and not undone by
     * an applied unmerge: a superset of the users in its tree now (an operation still pending may or may not have
     * landed), whose rows say which are. It holds no more than a tree (plus what is pending), however long the
     * history; UNION makes the walk end should the journal go round.
     */
    @Override
    public Set<UUID> everMergedInto(UUID uid) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        WITH RECURSIVE below(uid) AS (
                            SELECT ?::uuid
                          UNION
                            SELECT source.uid FROM below
                              JOIN user_operation o ON o.kind = 'merge' AND o.target_uid = below.uid
                                                   AND o.state IN ('applied', 'pending')
                              CROSS JOIN LATERAL unnest(o.source_uids) AS source(uid)
                             WHERE NOT EXISTS (SELECT 1 FROM merge_undo u
                                                 JOIN user_operation un ON un.op_id = u.unmerge_id AND un.state = 'applied'
                                                WHERE u.merge_id = o.op_id AND u.source_uid = source.uid)
                        )
                        SELECT uid FROM below WHERE uid <> ?::uuid
                        """)) {
            statement.setObject(1, uid);
            statement.setObject(2, uid);
            return Sql.rows(statement, new HashSet<UUID>(), Sql::firstUuid);
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /**
     * Whether an operation other than {@code except} is pending on any of these users: one a crash interrupted,
     * which the recovery is to complete (an operation under way holds the users' locks, so a caller holding them
     * finds only interrupted ones).
     */
    @Override
    public boolean pendingOn(Collection<UUID> uids, UUID except) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT 1 FROM user_operation
                         WHERE state = 'pending' AND op_id IS DISTINCT FROM ?
                           AND (target_uid = ANY(?) OR source_uids && ?)
                         LIMIT 1
                        """)) {
            var array = connection.createArrayOf("uuid", uids.toArray());
            statement.setObject(1, except);
            statement.setArray(2, array);
            statement.setArray(3, array);
            try (var rows = statement.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    private static Operation operation(ResultSet rows) throws SQLException {
        var sources = List.of((UUID[]) rows.getArray(4).getArray());
        return new Operation(rows.getObject(1, UUID.class), Kind.valueOf(rows.getString(2).toUpperCase()),
                rows.getObject(3, UUID.class), sources, rows.getObject(5, UUID.class), rows.getObject(6, UUID.class));
    }
}
