package io.profilestore.testing;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.profilestore.change.Lease;
import io.profilestore.change.LockTable;
import io.profilestore.postgres.PostgresLockTable;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Direct looks into the stores, for tests that check what a request did or did not change. */
public final class Stores {

    private Stores() {
    }

    /** The versions recorded in the outbox for a profile, in the order they were recorded. */
    public static List<Long> outboxVersions(UUID pid) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT version FROM outbox WHERE entity_type = 'profile' AND entity_id = ? ORDER BY id")) {
            statement.setObject(1, pid);
            var versions = new ArrayList<Long>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.add(rows.getLong(1));
                }
            }
            return versions;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the entity's lock has run out (or is free): its holder may no longer write. */
    public static boolean leaseRanOut(String entity) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT holder IS NULL OR lease_until < clock_timestamp()"
                        + " FROM entity_lock WHERE entity = ?")) {
            statement.setString(1, entity);
            try (var rows = statement.executeQuery()) {
                return !rows.next() || rows.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Makes a holder's change that may still land look as a version before completions recorded it: {@code kept} a
     * row with no rows to complete it (a batch update), or none at all (any other change).
     */
    public static void recordedByAnOlderVersion(UUID holder, boolean kept) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(kept
                        ? "UPDATE unsettled_change SET writes = NULL, records = NULL, writer = NULL WHERE holder = ?"
                        : "DELETE FROM unsettled_change WHERE holder = ?")) {
            statement.setObject(1, holder);
            if (statement.executeUpdate() != 1) {
                throw new IllegalStateException("no change of " + holder + " is left to complete");
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Who wrote the profile's row as it stands ({@code written_by}). */
    public static UUID profileWriter(UUID pid) {
        return TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "SELECT written_by FROM profiles.profile WHERE pid = ?", pid)).one().getUuid(0);
    }

    /** How many changes of these profiles the outbox holds that the relay has not published yet. */
    public static long unpublished(Collection<UUID> pids) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT count(*) FROM outbox WHERE entity_type = 'profile'"
                        + " AND entity_id = ANY(?) AND published_at IS NULL")) {
            statement.setArray(1, connection.createArrayOf("uuid", pids.toArray()));
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The id of the last change recorded in the outbox: unchanged across a request that wrote nothing. */
    public static long lastOutboxId() {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT coalesce(max(id), 0) FROM outbox");
                var rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Takes the lock of a profile the way another request would, for the given lease. */
    public static Lease lockProfile(UUID pid, Duration lease) {
        return locks(lease).acquire(List.of(LockTable.profile(pid)));
    }

    public static PostgresLockTable locks(Duration lease) {
        return new PostgresLockTable(TestStack.backends().postgres(), lease, new MetricRegistry());
    }

    /** The fence the lock table holds for a profile: the write timestamp of its latest holder. */
    public static long fenceOf(UUID pid) {
        return fenceOf(LockTable.profile(pid));
    }

    /** The fence the lock table holds for an entity ({@code profile:…}, {@code user:…}). */
    public static long fenceOf(String entity) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT fence FROM entity_lock WHERE entity = ?")) {
            statement.setString(1, entity);
            try (var rows = statement.executeQuery()) {
                if (!rows.next()) {
                    throw new IllegalStateException("no lock row for " + entity);
                }
                return rows.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The states of the merges and unmerges journaled with this target, oldest first. */
    public static List<String> operationStates(UUID target) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT state FROM user_operation WHERE target_uid = ? ORDER BY recorded_at")) {
            statement.setObject(1, target);
            var states = new ArrayList<String>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    states.add(rows.getString(1));
                }
            }
            return states;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The version each journaled merge into {@code target} gave each profile it moved, by pid. */
    public static Map<UUID, Long> journaledVersions(UUID target) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("""
                        SELECT m.pid, m.version FROM merge_move m JOIN user_operation o ON o.op_id = m.merge_id
                         WHERE o.target_uid = ? AND o.kind = 'merge'
                        """)) {
            statement.setObject(1, target);
            var versions = new HashMap<UUID, Long>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getObject(1, UUID.class), rows.getLong(2));
                }
            }
            return versions;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The pids Cassandra lists for a user. */
    public static List<UUID> pidsOfUser(UUID uid) {
        var session = TestStack.backends().cassandra();
        return session.execute(SimpleStatement.newInstance(
                        "SELECT pid FROM profiles.uid_pid WHERE uid = ?", uid))
                .all().stream().map(row -> row.getUuid("pid")).toList();
    }

    /** The history Cassandra keeps of a profile, newest first: each version's document (null for an erase), by version. */
    public static LinkedHashMap<Long, String> historyOf(UUID pid) {
        var history = new LinkedHashMap<Long, String>();
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                        "SELECT version, data FROM profiles.profile_version WHERE pid = ?", pid))
                .forEach(row -> history.put(row.getLong("version"), row.getString("data")));
        return history;
    }
}
