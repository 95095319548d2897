package io.profilestore.users;

import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What {@link UserPlanner} reads and locks while it plans an operation on users: Cassandra's rows, the merge
 * journal, and more locks as it learns which users and profiles the operation touches. {@link UserService} gives it
 * the stores under the operation's locks; a test gives it maps.
 */
public interface UserReads {

    /** The users' rows; those without one are absent. */
    Map<UUID, UserRow> users(Collection<UUID> uids);

    /** The pids {@code uid_pid} lists under the user (the profile rows say which are really its). */
    List<UUID> pidsOf(UUID uid);

    /** The profiles' rows; erased ones are absent. */
    Map<UUID, ProfileRow> profiles(Collection<UUID> pids);

    /** Every user the journal ever saw merged into this one, directly or not: a superset of its tree's members. */
    Set<UUID> everMergedInto(UUID uid);

    /** What a journaled operation moved. */
    List<Move> moves(UUID opId);

    /**
     * The merge an unmerge of this source from this target would undo: the latest applied merge of the source into
     * the target; or, by id, that merge.
     */
    Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId);

    /** The sources of a merge that an unmerge undid already (or is undoing). */
    List<UUID> undone(UUID mergeId);

    /** Whether an interrupted operation other than {@code except} waits for the recovery on any of these users. */
    boolean pendingOn(Collection<UUID> uids, UUID except);

    /** Locks these entities too, all or none, at once or never (taken: {@link io.profilestore.change.EntitiesLockedException}). */
    void lock(Collection<String> entities);
}
