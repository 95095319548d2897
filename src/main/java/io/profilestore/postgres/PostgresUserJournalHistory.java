package io.profilestore.postgres;

import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserJournalHistory.Edge;
import io.profilestore.change.UserJournalHistory.Moving;
import io.profilestore.change.UserJournalHistory.Recorded;
import io.profilestore.change.UserJournalHistory.Undone;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * The merge journal read as history: what the console shows of a user's merges, and what check-tables compares
 * the users' table with. {@link PostgresUserJournal} writes the journal and reads what operations need.
 */
public class PostgresUserJournalHistory implements UserJournalHistory {

    private final DataSource dataSource;

    public PostgresUserJournalHistory(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The latest merges (abandoned ones aside) into or of any of these users, newest first, at most {@code limit}. */
    @Override
    public List<Recorded> history(Collection<UUID> uids, int limit) {
        try (var connection = dataSource.getConnection()) {
            var array = connection.createArrayOf("uuid", uids.toArray());
            var merges = new ArrayList<Recorded>();
            try (var statement = connection.prepareStatement("""
                    SELECT op_id, target_uid, source_uids, state, recorded_at FROM user_operation
                     WHERE kind = 'merge' AND state <> 'abandoned' AND (target_uid = ANY(?) OR source_uids && ?)
                     ORDER BY recorded_at DESC LIMIT ?
                    """)) {
                statement.setArray(1, array);
                statement.setArray(2, array);
                statement.setInt(3, limit);
                try (var rows = statement.executeQuery()) {
                    while (rows.next()) {
                        merges.add(new Recorded(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class),
                                List.of((UUID[]) rows.getArray(3).getArray()), rows.getString(4),
                                rows.getTimestamp(5).toInstant(), new ArrayList<>(), new ArrayList<>()));
                    }
                }
            }
            var ids = connection.createArrayOf("uuid", merges.stream().map(Recorded::opId).toArray());
            var undone = new ArrayList<Undone>();
            try (var statement = connection.prepareStatement("""
                    SELECT u.merge_id, u.source_uid, u.unmerge_id, o.state, o.recorded_at FROM merge_undo u
                      JOIN user_operation o ON o.op_id = u.unmerge_id
                     WHERE u.merge_id = ANY(?) ORDER BY o.recorded_at
                    """)) {
                statement.setArray(1, ids);
                try (var rows = statement.executeQuery()) {
                    while (rows.next()) {
                        var undo = new Undone(rows.getObject(2, UUID.class), rows.getObject(3, UUID.class),
                                rows.getString(4), rows.getTimestamp(5).toInstant(), new ArrayList<>());
                        var merge = rows.getObject(1, UUID.class);
                        merges.stream().filter(m -> m.opId().equals(merge)).findFirst().ifPresent(m -> m.undone().add(undo));
                        undone.add(undo);
                    }
                }
            }
            for (var merge : merges) {
                merge.moves().addAll(PostgresUserJournal.moves(connection, merge.opId()));
            }
            // an unmerge of several sources (by the merge's id) moved each profile back to one of them
            var unmergeMoves = new HashMap<UUID, List<Move>>();
            for (var undo : undone) {
                var moves = unmergeMoves.computeIfAbsent(undo.unmergeId(), id -> {
                    try {
                        return PostgresUserJournal.moves(connection, id);
                    } catch (SQLException e) {
                        throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
                    }
                });
                moves.stream().filter(move -> move.to().equals(undo.source())).forEach(undo.moves()::add);
            }
            return merges;
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    private static final String ACTIVE_EDGES = """
            SELECT source.uid, o.target_uid FROM user_operation o
             CROSS JOIN LATERAL unnest(o.source_uids) AS source(uid)
             WHERE o.kind = 'merge' AND o.state = 'applied'
               AND NOT EXISTS (SELECT 1 FROM merge_undo u WHERE u.merge_id = o.op_id AND u.source_uid = source.uid)
            """;

    /** The users these were merged into, as the journal's applied merges less their unmerges say (absent: none). */
    @Override
    public Map<UUID, UUID> parentsInJournal(Collection<UUID> uids) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement(ACTIVE_EDGES
                        + " AND o.source_uids && ?::uuid[] AND source.uid = ANY(?::uuid[])")) {
            var array = connection.createArrayOf("uuid", uids.toArray());
            statement.setArray(1, array);
            statement.setArray(2, array);
            var found = new HashMap<UUID, UUID>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /** Every merge the journal holds as applied and not undone, a batch at a time. */
    @Override
    public void activeEdges(int batch, Consumer<List<Edge>> each) {
        try (var connection = dataSource.getConnection()) {
            connection.setAutoCommit(false); // a cursor: the rows come a fetch at a time
            try (var statement = connection.prepareStatement(ACTIVE_EDGES)) {
                statement.setFetchSize(batch);
                var edges = new ArrayList<Edge>();
                try (var rows = statement.executeQuery()) {
                    while (rows.next()) {
                        edges.add(new Edge(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class)));
                        if (edges.size() == batch) {
                            each.accept(List.copyOf(edges));
                            edges.clear();
                        }
                    }
                }
                if (!edges.isEmpty()) {
                    each.accept(edges);
                }
            } finally {
                connection.rollback();
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    @Override
    public Optional<Moving> movedBy(UUID pid, long version) {
        try (var connection = dataSource.getConnection()) {
            try (var statement = connection.prepareStatement("""
                    SELECT o.op_id, o.kind, o.target_uid, o.source_uids, o.state FROM merge_move m
                      JOIN user_operation o ON o.op_id = m.merge_id
                     WHERE m.pid = ? AND m.version = ? AND o.state <> 'abandoned'
                    """)) {
                statement.setObject(1, pid);
                statement.setLong(2, version);
                try (var rows = statement.executeQuery()) {
                    if (!rows.next()) {
                        return Optional.empty();
                    }
                    UUID opId = rows.getObject(1, UUID.class);
                    var kind = "merge".equals(rows.getString(2)) ? UserJournal.Kind.MERGE : UserJournal.Kind.UNMERGE;
                    return Optional.of(new Moving(opId, kind, rows.getObject(3, UUID.class),
                            List.of((UUID[]) rows.getArray(4).getArray()), PostgresUserJournal.moves(connection, opId),
                            "pending".equals(rows.getString(5))));
                }
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }

    /** Which of these users an interrupted operation still waits on (see {@link #pendingOn}). */
    @Override
    public Set<UUID> pendingUsers(Collection<UUID> uids) {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        SELECT DISTINCT u.uid FROM user_operation o
                         CROSS JOIN LATERAL unnest(o.source_uids || o.target_uid) AS u(uid)
                         WHERE o.state = 'pending' AND u.uid = ANY(?)
                        """)) {
            statement.setArray(1, connection.createArrayOf("uuid", uids.toArray()));
            return Sql.rows(statement, new HashSet<UUID>(), Sql::firstUuid);
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not read user operations from PostgreSQL", e);
        }
    }
}
