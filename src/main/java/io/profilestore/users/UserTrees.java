package io.profilestore.users;

import io.profilestore.profiles.UserNotFoundException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** What {@link UserPlanner}'s operations share: the users of a tree, the rows read, the refusals. */
final class UserTrees {

    private UserTrees() {
    }

    /**
     * The users in the tree of {@code root} whose chain of parents reaches {@code top} ({@code top} itself left out):
     * what the journal has merged into {@code top} and not surely unmerged, as their rows say they stand now.
     */
    static Map<UUID, UserRow> below(UserReads reads, UUID top, UUID root) {
        var candidates = reads.everMergedInto(top);
        if (candidates.isEmpty()) {
            return Map.of();
        }
        var tree = new LinkedHashMap<UUID, UserRow>();
        reads.users(candidates).values().stream().filter(row -> root.equals(row.masterUid()))
                .forEach(row -> tree.put(row.uid(), row));
        var found = new LinkedHashMap<UUID, UserRow>();
        for (var row : tree.values()) {
            var seen = new HashSet<UUID>();
            for (UUID at = row.parent(); at != null && seen.add(at); at = tree.containsKey(at) ? tree.get(at).parent() : null) {
                if (at.equals(top)) {
                    found.put(row.uid(), row);
                    break;
                }
            }
        }
        return found;
    }

    /**
     * An operation a crash interrupted, on any of these users, is completed by the recovery first: until then the
     * rows may still change under what this one reads.
     */
    static void refuseWhilePending(UserReads reads, Operation operation, Collection<UUID> users) {
        if (reads.pendingOn(users, operation.opId())) {
            throw new AwaitingRecoveryException("an interrupted merge or unmerge of these users is being completed"
                    + " (users.recoveryDelay); retry in a few seconds");
        }
    }

    /**
     * Whether a batch of this interrupted merge or unmerge (its first run's or a resumed run's) shows on a row it
     * writes: a source under the target (a merge) or a root again (an unmerge), a user of a source's tree whose master
     * is the target (a merge) or the source (an unmerge), a profile it journaled under the user it moved it to, with
     * the home it had. While the operation is pending nothing else writes these: other merges and unmerges of its
     * users are refused, and a move by hand makes the user it moves a profile to that profile's home. A logged batch
     * seen anywhere lands whole in the end (its batchlog replays the rest), so the operation stands: it is completed,
     * never abandoned (which would write its rows again as they stand, half of it, above the rest of it).
     */
    static boolean batchShows(UserReads reads, Operation operation) {
        boolean merge = operation.kind() == Kind.MERGE;
        var sources = reads.users(operation.sources());
        for (UUID source : operation.sources()) {
            var row = sources.get(source);
            if (row != null && (merge ? operation.target().equals(row.parent()) : row.parent() == null)
                    || !below(reads, source, merge ? operation.target() : source).isEmpty()) {
                return true;
            }
        }
        var journaled = reads.moves(operation.opId());
        var rows = reads.profiles(journaled.stream().map(Move::pid).toList());
        return journaled.stream().anyMatch(move -> {
            var row = rows.get(move.pid());
            return row != null && move.to().equals(row.uid())
                    && (row.recordedHome() == null || row.recordedHome().equals(move.home()));
        });
    }

    /**
     * Of what the interrupted run of a resumed operation journaled, the profiles it surely did not move: not taken
     * now, under another user than the run would have put them under, at exactly the version the run planned for
     * them. Each change adds one to a profile's version, so another change made that version (a move by hand) before
     * the run's write could land; had it landed first, that change would have put the profile above it. A profile
     * changed again since, or erased, may have been moved by the run first: its journal row stays.
     */
    static List<UUID> notMoved(List<Move> journaled, Set<UUID> taken, Map<UUID, ProfileRow> rows) {
        return journaled.stream().filter(move -> !taken.contains(move.pid())).filter(move -> {
            var row = rows.get(move.pid());
            return row != null && row.version() == move.version() && !move.to().equals(row.uid());
        }).map(Move::pid).toList();
    }

    /** The documents' size as Cassandra's batch counts it: UTF-8 bytes. */
    static long bytes(Collection<ProfileRow> rows) {
        return rows.stream().mapToLong(row -> row.data().getBytes(StandardCharsets.UTF_8).length).sum();
    }

    /** The latest write time of the rows an operation replaces. */
    static long newestWrite(Collection<ProfileRow> profiles, Collection<UserRow> users) {
        return Math.max(profiles.stream().mapToLong(ProfileRow::written).max().orElse(0),
                users.stream().mapToLong(UserRow::written).max().orElse(0));
    }

    static UserRow existing(Map<UUID, UserRow> users, UUID uid) {
        var user = users.get(uid);
        if (user == null) {
            throw new UserNotFoundException(uid);
        }
        return user;
    }

    static List<UUID> withTarget(UUID target, List<UUID> sources) {
        var all = new ArrayList<>(sources);
        all.add(target);
        return all;
    }
}
