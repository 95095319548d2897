package io.profilestore.users;

import io.profilestore.change.ChangeRunner;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The stores, as {@link UserPlanner} reads them under an operation's locks (none: before it takes any). */
final class StoredUserReads implements UserReads {
    private final ProfileRows dao;
    private final UserJournal journal;
    private final ChangeRunner.Change change;

    StoredUserReads(ProfileRows dao, UserJournal journal, ChangeRunner.Change change) {
        this.dao = dao;
        this.journal = journal;
        this.change = change;
    }

    @Override
    public Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId) {
        return journal.mergeToUndo(target, source, mergeId);
    }

    @Override
    public List<UUID> undone(UUID mergeId) {
        return journal.undone(mergeId);
    }

    @Override
    public Map<UUID, UserRow> users(Collection<UUID> uids) {
        return dao.findUsers(uids);
    }

    @Override
    public List<UUID> pidsOf(UUID uid) {
        return dao.pidsOfUser(uid);
    }

    @Override
    public Map<UUID, ProfileRow> profiles(Collection<UUID> pids) {
        return dao.findAll(pids);
    }

    @Override
    public Set<UUID> everMergedInto(UUID uid) {
        return journal.everMergedInto(uid);
    }

    @Override
    public List<Move> moves(UUID opId) {
        return journal.moves(opId);
    }

    @Override
    public boolean pendingOn(Collection<UUID> uids, UUID except) {
        return journal.pendingOn(uids, except);
    }

    @Override
    public void lock(Collection<String> entities) {
        if (!entities.isEmpty()) {
            if (change == null) {
                throw new IllegalStateException("locks are taken under the operation's first ones");
            }
            change.lockMore(List.copyOf(entities));
        }
    }
}
