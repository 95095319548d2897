package io.profilestore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The rows an import writes, straight to Cassandra at QUORUM (the session's default), without the service's write
 * path: a profile's row at version 1, at home under its user; the user's row; and the user's list of profiles. The
 * user's two rows share a partition key, so they go as one unlogged batch, applied as one mutation, once the profile's
 * row is confirmed: the tables' check, should it run meanwhile, never sees a list naming a profile that is not there
 * (a stray link it would remove at a later time than the import's, for good), only a profile its user does not list
 * yet, which it repairs as the import would.
 *
 * <p>Every row is written at {@link #WRITE_TIME}, below any time the service writes at (its fences are PostgreSQL's
 * clock in microseconds). So an import never replaces what the service wrote or erased at the same pid or uid,
 * before the import or during it: the service's write wins last-write-wins. And writing a record again (a resumed or
 * repeated import) writes the same cells at the same time, which changes nothing. The user's row names only the
 * columns it sets: a null would be a tombstone.
 *
 * <p>The profile's history gets version 1 with it (kind {@code imported}), in the same mutation (both tables are keyed by
 * pid). A pid whose history holds a version the service wrote (created there, or erased) is left alone: an erase's
 * tombstone on the profile's row beats the import's time only until Cassandra purges it ({@code gc_grace_seconds}),
 * and an import run again after that would otherwise bring an erased profile back.
 */
public class ImportRows {

    /** The write time of every imported cell, in microseconds: 1, just after the epoch. */
    public static final long WRITE_TIME = 1;

    private final CqlSession session;
    private final PreparedStatement profile;
    private final PreparedStatement firstVersion;
    private final PreparedStatement newestVersion;
    private final PreparedStatement user;
    private final PreparedStatement link;

    public ImportRows(CqlSession session, String keyspace) {
        this.session = session;
        this.profile = session.prepare("INSERT INTO " + keyspace
                + ".profile (pid, uid, home_uid, version, data, created_at, updated_at, kind)"
                + " VALUES (?, ?, ?, 1, ?, ?, ?, 'imported')");
        this.firstVersion = session.prepare("UPDATE " + keyspace + ".profile_version SET kind = 'imported',"
                + " changed_at = ?, created_at = ?, uid = ?, data = ? WHERE pid = ? AND version = 1");
        this.newestVersion = session.prepare("SELECT WRITETIME(changed_at) AS written FROM " + keyspace
                + ".profile_version WHERE pid = ? LIMIT 1");
        this.user = session.prepare("INSERT INTO " + keyspace
                + ".persons (uid, version, created_at, updated_at) VALUES (?, 1, ?, ?)");
        this.link = session.prepare("INSERT INTO " + keyspace + ".uid_pid (uid, pid) VALUES (?, ?)");
    }

    /**
     * Writes one profile, its user and its place in the user's list; done when Cassandra confirmed all of them.
     * {@code userCreatedAt} is the same for every profile of a user (the import's start), so that its row does not
     * depend on which profile of it was written last.
     */
    public CompletableFuture<Void> write(UUID pid, UUID uid, String data, Instant createdAt, Instant userCreatedAt) {
        return session.executeAsync(newestVersion.bind(pid).setIdempotent(true))
                .thenCompose(history -> {
                    Row newest = history.one();
                    if (newest != null && newest.getLong("written") > WRITE_TIME) {
                        return CompletableFuture.<Void>completedFuture(null); // the service's pid: left alone
                    }
                    // the row and its first version share a partition key: one mutation
                    return session.executeAsync(BatchStatement.newInstance(DefaultBatchType.UNLOGGED,
                                    profile.bind(pid, uid, uid, data, createdAt, createdAt),
                                    firstVersion.bind(createdAt, createdAt, uid, data, pid))
                                    .setQueryTimestamp(WRITE_TIME).setIdempotent(true))
                            .thenCompose(written -> session.executeAsync(BatchStatement.newInstance(DefaultBatchType.UNLOGGED,
                                            user.bind(uid, userCreatedAt, userCreatedAt), link.bind(uid, pid))
                                    .setQueryTimestamp(WRITE_TIME).setIdempotent(true)))
                            .<Void>thenApply(written -> null);
                })
                .toCompletableFuture();
    }
}
