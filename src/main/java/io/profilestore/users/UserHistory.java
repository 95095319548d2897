package io.profilestore.users;

import io.profilestore.profiles.UserNotFoundException;
import io.profilestore.api.MergeHistory;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A user's merge history: the merges into or of the users of its tree, as the journal has them. */
public class UserHistory {

    /** The most merges one answer lists. */
    public static final int LIMIT = 100;

    private final ProfileRows dao;
    private final UserJournal journal;
    private final UserJournalHistory history;

    public UserHistory(ProfileRows dao, UserJournal journal, UserJournalHistory history) {
        this.dao = dao;
        this.journal = journal;
        this.history = history;
    }

    public MergeHistory of(UUID uid) {
        var row = dao.findUser(uid).orElseThrow(() -> new UserNotFoundException(uid, true));
        UUID root = row.merged() ? row.masterUid() : uid;
        // the users of the tree now: the root, and every user the journal saw merged into it that is there still
        var users = new LinkedHashSet<UUID>(List.of(uid, root));
        var candidates = journal.everMergedInto(root);
        if (!candidates.isEmpty()) {
            dao.findUsers(candidates).values().stream().filter(user -> root.equals(user.masterUid()))
                    .map(UserRow::uid).forEach(users::add);
        }
        var merges = new ArrayList<MergeHistory.Merge>();
        for (var merge : history.history(users, LIMIT)) {
            var undone = merge.undone().stream().map(undo -> new MergeHistory.Undo(undo.source(), undo.unmergeId(),
                    undo.state(), undo.recordedAt(), undo.moves().stream().map(Move::pid).toList())).toList();
            merges.add(new MergeHistory.Merge(merge.opId(), merge.target(), merge.sources(), merge.state(),
                    merge.recordedAt(), byOrigin(merge.moves()), undone));
        }
        var pids = dao.findAll(dao.pidsOfUser(root)).values().stream().filter(profile -> root.equals(profile.uid()))
                .map(ProfileRow::pid).sorted().toList();
        return new MergeHistory(root, pids, merges);
    }

    private static Map<UUID, List<UUID>> byOrigin(List<Move> moves) {
        var moved = new LinkedHashMap<UUID, List<UUID>>();
        moves.forEach(move -> moved.computeIfAbsent(move.from(), from -> new ArrayList<>()).add(move.pid()));
        return moved;
    }
}
