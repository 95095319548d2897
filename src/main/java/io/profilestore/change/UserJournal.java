package io.profilestore.change;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The journal of merges and unmerges: an operation is written as pending in the transaction that records its change
 * (before Cassandra is written), and marked applied once Cassandra confirmed it; what stays pending was interrupted,
 * and is completed by the recovery. The port {@code postgres.PostgresUserJournal} implements.
 */
public interface UserJournal {

    /** Which operation on users. */
    enum Kind { MERGE, UNMERGE }

    /**
     * An operation: for an unmerge, {@code mergeId} is the merge it undoes; {@code requestId} the id of the request
     * that recorded it, which the rows it writes carry (null until it is recorded, and in records from before it was
     * kept).
     */
    record Operation(UUID opId, Kind kind, UUID target, List<UUID> sources, UUID mergeId, UUID requestId) {

        /** An operation not recorded yet. */
        public Operation(UUID opId, Kind kind, UUID target, List<UUID> sources, UUID mergeId) {
            this(opId, kind, target, sources, mergeId, null);
        }
    }

    /**
     * A profile an operation moved: from which user to which, its own user (home) then, and the version the
     * operation gave it.
     */
    record Move(UUID pid, UUID from, UUID home, UUID to, long version) {
    }

    /**
     * The journal of a merge, for {@link ChangeRunner.Change#commit}; {@code requestId}: the
     * change's writer.
     */
    JournalEntry recordMerge(Operation merge, List<Move> moves, UUID requestId);

    /** The journal of an unmerge: its sources count as undone from then on (unless it is abandoned). */
    JournalEntry recordUnmerge(Operation unmerge, List<Move> moves, UUID requestId);

    /**
     * A journal of what a resumed operation moves: beside what was first recorded, and in its place where it moves a
     * profile again (at the version the profile is at now, which may not be the one first recorded); without the
     * profiles {@code notMoved} (first recorded, then moved by hand before the interrupted run's write could land:
     * kept, the user's merge history listed them as the operation's).
     */
    JournalEntry resumedMoves(UUID opId, List<Move> moves, List<UUID> notMoved);

    /**
     * Abandons a pending operation whose write surely did not happen, but only while its caller still holds every
     * lock of its lease: then no recovery can be resuming it at the same moment. Returns whether it did.
     */
    boolean abandonWhileHolding(UUID opId, Lease held);

    /** Whether the operation is still pending (a resume, under its locks, looks again). */
    boolean isPending(UUID opId);

    /**
     * Marks a pending operation done: applied (Cassandra confirmed it) or abandoned (it could not be completed).
     * Returns whether it was pending: false when another instance (the recovery) finished it first.
     */
    boolean finish(UUID opId, boolean applied);

    /** Operations pending for longer than the age: interrupted, to be completed. */
    List<Operation> pending(Duration olderThan);

    /**
     * The merge an unmerge of this source from this target would undo: the latest applied merge of the source into
     * the target (whether it was undone already is {@link #undone}'s to say); or, by id, that merge.
     */
    Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId);

    /** The sources of a merge that an unmerge already undid (or is undoing). */
    List<UUID> undone(UUID mergeId);

    /** What an operation moved. (Moves journaled before homes were kept have none: their home is where they came from.) */
    List<Move> moves(UUID opId);

    /**
     * Every user merged into this one, directly or through others, by a merge applied or pending and not undone by
     * an applied unmerge: a superset of the users in its tree now (an operation still pending may or may not have
     * landed), whose rows say which are. It holds no more than a tree (plus what is pending), however long the
     * history; UNION makes the walk end should the journal go round.
     */
    Set<UUID> everMergedInto(UUID uid);

    /**
     * Whether an operation other than {@code except} is pending on any of these users: one a crash interrupted,
     * which the recovery is to complete (an operation under way holds the users' locks, so a caller holding them
     * finds only interrupted ones).
     */
    boolean pendingOn(Collection<UUID> uids, UUID except);
}
