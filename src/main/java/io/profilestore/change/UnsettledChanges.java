package io.profilestore.change;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The changes of profiles that may still land (recorded, not confirmed yet), and what completes them, as the write
 * path settles them: the port {@code postgres.PostgresUnsettledChanges} implements on PostgreSQL.
 */
public interface UnsettledChanges {

    /**
     * A change that may still land: its profiles and the fence its write carries; the fence a settler writes its rows
     * again at (null: none yet); how long ago it was first found landed in part (null: never); and what completes it
     * (null: recorded by a version that kept no such thing, settled as before).
     */
    record Unsettled(UUID holder, List<UUID> pids, long fence, Long revokedFence, Duration partFor,
            Completion completion) {
    }

    /** What a change writes, as it recorded it: its rows, its records for the indexer, and the id its rows carry. */
    record Completion(List<RowWrite> writes, List<OutboxRecord> records, UUID writer) {

        /** Every profile it writes or records: a lock of any of them finds it. */
        public Set<UUID> pids() {
            var pids = new LinkedHashSet<UUID>();
            records.stream().filter(r -> r.entityType().equals(OutboxRecord.PROFILE)).forEach(r -> pids.add(r.entityId()));
            for (var write : writes) {
                if (write instanceof RowWrite.PutProfile put) {
                    pids.add(put.row().pid());
                } else if (write instanceof RowWrite.OwnLink own) {
                    pids.add(own.row().pid());
                } else if (write instanceof RowWrite.EraseProfile erase) {
                    pids.add(erase.pid());
                } else if (write instanceof RowWrite.LinkProfile link) {
                    pids.add(link.pid());
                } else if (write instanceof RowWrite.UnlinkProfile unlink) {
                    pids.add(unlink.pid());
                } else if (write instanceof RowWrite.RecordVersion version) {
                    pids.add(version.version().pid());
                } else if (write instanceof RowWrite.ForgetVersion forget) {
                    pids.add(forget.pid());
                } else if (write instanceof RowWrite.PurgeVersions purge) {
                    pids.add(purge.pid());
                }
            }
            return pids;
        }

        /** Every user whose row or list of profiles it writes: its completer locks them too. */
        public Set<UUID> users() {
            var users = new LinkedHashSet<UUID>();
            for (var write : writes) {
                if (write instanceof RowWrite.PutProfile put) {
                    users.add(put.row().uid());
                } else if (write instanceof RowWrite.OwnLink own) {
                    users.add(own.row().uid());
                } else if (write instanceof RowWrite.LinkProfile link) {
                    users.add(link.uid());
                } else if (write instanceof RowWrite.UnlinkProfile unlink) {
                    users.add(unlink.uid());
                } else if (write instanceof RowWrite.PutUser user) {
                    users.add(user.user().uid());
                } else if (write instanceof RowWrite.PutNewUser user) {
                    users.add(user.uid());
                }
            }
            return users;
        }
    }

    /**
     * Keeps what completes the change, in the transaction that records it, should Cassandra not confirm it. The
     * release after a confirmed write forgets it ({@link LockTable#release}).
     */
    void keep(RecordTransaction transaction, Lease held, Completion completion);

    /** The change of this (former) holder that may still land, if it recorded one. */
    Optional<Unsettled> of(UUID holder);

    /** Found landed in part: the time it was first found so is kept. */
    void foundInPart(UUID holder);

    /** Notes, in the settler's record, the fence it writes the rows again at. */
    void revoke(RecordTransaction transaction, UUID holder, long fence);

    /**
     * Frees the locks of a change Cassandra did not confirm, and keeps what completes it, for the next holder of any
     * of them: says whether they were still ours, like {@link LockTable#release}; never throws.
     */
    LockTable.Release releaseLeavingItToComplete(Lease held);

    /**
     * Forgets what completes the change of a holder Cassandra surely did not apply it for, and frees its locks,
     * durably: RELEASED says nobody completed it, nor can; anything else, that somebody may have. Never throws.
     */
    LockTable.Release forget(Lease held);

    /** The change stands whole now (completed, or as an older version's batch, nowhere): it is forgotten. */
    void settled(UUID holder);

    /**
     * The profiles of the oldest changes that may still land, recorded more than {@code age} ago, at most
     * {@code limit}: their writers are long gone, and the sweep settles them ({@link UnsettledSweep}).
     */
    List<List<UUID>> leftBehind(Duration age, int limit);
}
