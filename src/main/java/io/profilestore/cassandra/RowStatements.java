package io.profilestore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RowWrite;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The statements each {@link RowWrite} is written with. Every column of a row is bound, so that the newest write wins
 * whole. The history's rows ({@code profile_version}) are written with UPDATE, never INSERT: an INSERT's row marker
 * would outlive a replaced version's TTL and leave an empty row (cql/0004_profile_versions.cql).
 */
final class RowStatements {

    /** Cassandra's longest TTL: 20 years. */
    static final Duration LONGEST_TTL = Duration.ofSeconds(630_720_000);

    private final PreparedStatement upsertUser;
    private final PreparedStatement insertProfile;
    private final PreparedStatement insertUser;
    private final PreparedStatement insertUserProfile;
    private final PreparedStatement deleteProfile;
    private final PreparedStatement deleteUserProfile;
    private final PreparedStatement putVersion;
    private final PreparedStatement retireVersion;
    private final PreparedStatement forgetVersion;
    private final PreparedStatement purgeVersions;
    private final int retentionSeconds;

    /** @param retention how long a version is kept after it was replaced ({@code history.retention}) */
    RowStatements(CqlSession session, String keyspace, Duration retention) {
        if (retention.isNegative() || retention.isZero() || retention.compareTo(LONGEST_TTL) > 0) {
            throw new IllegalArgumentException("the history's retention must be above zero and at most 20 years"
                    + " (Cassandra's longest TTL), not " + retention);
        }
        this.retentionSeconds = (int) retention.toSeconds();
        this.upsertUser = session.prepare("INSERT INTO " + keyspace
                + ".persons (uid, master_uid, merged_into, version, created_at, updated_at, written_by)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)");
        this.insertProfile = session.prepare("INSERT INTO " + keyspace
                + ".profile (pid, uid, home_uid, version, data, created_at, updated_at, written_by, kind)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
        this.insertUser = session.prepare("INSERT INTO " + keyspace
                + ".persons (uid, master_uid, merged_into, version, created_at, updated_at, written_by)"
                + " VALUES (?, null, null, ?, ?, ?, ?)");
        this.insertUserProfile = session.prepare("INSERT INTO " + keyspace + ".uid_pid (uid, pid, written_by) VALUES (?, ?, ?)");
        this.deleteProfile = session.prepare("DELETE FROM " + keyspace + ".profile WHERE pid = ?");
        this.deleteUserProfile = session.prepare("DELETE FROM " + keyspace + ".uid_pid WHERE uid = ? AND pid = ?");
        String versionColumns = " SET kind = ?, changed_at = ?, created_at = ?, uid = ?, data = ?, written_by = ?"
                + " WHERE pid = ? AND version = ?";
        this.putVersion = session.prepare("UPDATE " + keyspace + ".profile_version" + versionColumns);
        this.retireVersion = session.prepare("UPDATE " + keyspace + ".profile_version USING TTL ?" + versionColumns);
        this.forgetVersion = session.prepare("DELETE FROM " + keyspace + ".profile_version WHERE pid = ? AND version = ?");
        this.purgeVersions = session.prepare("DELETE FROM " + keyspace + ".profile_version WHERE pid = ? AND version < ?");
    }

    /**
     * The statements of one write: one, or for a version of a profile's history two (it, and the version it replaces
     * written again to expire after the retention).
     */
    List<BoundStatement> of(RowWrite write, UUID writer) {
        if (write instanceof RowWrite.PutProfile put) {
            var row = put.row();
            return List.of(insertProfile.bind(row.pid(), row.uid(), row.recordedHome(), row.version(), row.data(),
                    row.createdAt(), row.updatedAt(), writerOf(row.writtenBy(), writer), kindOf(row)));
        }
        if (write instanceof RowWrite.RecordVersion recorded) {
            var made = version(putVersion.bind(), recorded.version(), writer);
            if (recorded.replaced() == null) {
                return List.of(made);
            }
            var retired = version(retireVersion.bind().setInt(0, retentionSeconds), recorded.replaced(), writer);
            return List.of(made, retired);
        }
        if (write instanceof RowWrite.ForgetVersion forget) {
            return List.of(forgetVersion.bind(forget.pid(), forget.version()));
        }
        if (write instanceof RowWrite.PurgeVersions purge) {
            return List.of(purgeVersions.bind(purge.pid(), purge.below()));
        }
        if (write instanceof RowWrite.EraseProfile erase) {
            return List.of(deleteProfile.bind(erase.pid()));
        }
        if (write instanceof RowWrite.PutUser put) {
            var user = put.user();
            return List.of(upsertUser.bind(user.uid(), user.masterUid(), user.mergedInto(), user.version(), user.createdAt(),
                    user.updatedAt(), writerOf(user.writtenBy(), writer)));
        }
        if (write instanceof RowWrite.PutNewUser put) {
            return List.of(insertUser.bind(put.uid(), 1L, put.at(), put.at(), writer));
        }
        if (write instanceof RowWrite.LinkProfile link) {
            return List.of(insertUserProfile.bind(link.uid(), link.pid(), writer));
        }
        if (write instanceof RowWrite.OwnLink own) {
            return List.of(insertUserProfile.bind(own.row().uid(), own.row().pid(), writerOf(own.row().writtenBy(), writer)));
        }
        if (write instanceof RowWrite.UnlinkProfile unlink) {
            return List.of(deleteUserProfile.bind(unlink.uid(), unlink.pid()));
        }
        // RowWrite is sealed; Java 17 cannot check a chain of instanceof for exhaustiveness
        throw new IllegalArgumentException("no statement for " + write.getClass());
    }

    /** A version's columns, bound by name after the TTL (if any): its values as its profile's row held them. */
    private static BoundStatement version(BoundStatement statement, ProfileRow row, UUID writer) {
        return statement.setString("kind", kindOf(row))
                .setInstant("changed_at", row.updatedAt())
                .setInstant("created_at", row.createdAt())
                .setUuid("uid", row.uid())
                .setString("data", row.data())
                .setUuid("written_by", writerOf(row.writtenBy(), writer))
                .setUuid("pid", row.pid())
                .setLong("version", row.version());
    }

    private static String kindOf(ProfileRow row) {
        return row.recordedKind() == null ? null : row.recordedKind().wireName();
    }

    /**
     * The writer a row is written with: the change's for a row it makes (none of its own yet), its own for a row written
     * again as it stands ({@link ProfileRow#NO_WRITER}, none, for a row from before {@code written_by} was kept).
     */
    private static UUID writerOf(UUID own, UUID change) {
        return own == null ? change : ProfileRow.NO_WRITER.equals(own) ? null : own;
    }
}
