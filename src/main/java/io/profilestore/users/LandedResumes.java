package io.profilestore.users;

import static io.profilestore.users.UserTrees.newestWrite;

import io.profilestore.api.UserResults;
import io.profilestore.change.LockTable;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.VersionKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.UUID;

/**
 * The recovery's plan for a merge or unmerge whose interrupted batch landed before the recovery came (a Cassandra
 * coordinator replays a logged batch from its batchlog, seconds after its client gave up): its users' rows show it
 * done. The operation stands, so it is neither refused nor limited again, and what the batch wrote is not written
 * again; what it could not cover moves now (main's fault suite found a profile left so, 2026-12-05).
 */
final class LandedResumes {

    private LandedResumes() {
    }

    /**
     * A resumed merge whose interrupted batch landed (every source is the target's): the merge stands, so it is
     * neither refused nor limited now, and what it wrote is not written again. A profile that still names a source
     * moves under the target: one a source took while the merge was pending (created under it, or moved to it by
     * hand, once the interrupted run held no locks), or one the batch moved whose row a later change kept under the
     * source (that change's write being newer than the batch's). With none, it is done.
     */
    static PreparedOperation<UserResults.Merged> merge(UserReads reads, Operation merge,
            List<Move> journaled) {
        var candidates = new LinkedHashSet<UUID>();
        merge.sources().forEach(source -> candidates.addAll(reads.pidsOf(source)));
        journaled.forEach(move -> candidates.add(move.pid()));
        reads.lock(candidates.stream().map(LockTable::profile).toList());
        var rows = reads.profiles(candidates);
        // the source a profile is under is the one its row names, whichever lists it (a late write's link may too)
        var left = new LinkedHashMap<UUID, UUID>();
        candidates.forEach(pid -> {
            if (rows.containsKey(pid) && merge.sources().contains(rows.get(pid).uid())) {
                left.put(pid, rows.get(pid).uid());
            }
        });
        if (left.isEmpty()) {
            return PreparedOperation.done(merged(merge, journaled));
        }
        return new PreparedOperation<>(null, newestWrite(rows.values(), List.of()), (at, fence) -> {
            var plan = new UserPlanBuilder();
            left.forEach((pid, from) -> plan.move(rows.get(pid).under(merge.target(), rows.get(pid).version() + 1, at,
                    fence, VersionKind.MERGED), from));
            return plan.done(new UserResults.Merged(merge.opId(), merge.target(), plan.movedByOrigin(), plan.versions()));
        });
    }

    /**
     * A resumed unmerge whose interrupted batch landed (every source is a root again): what it wrote is not written
     * again. A profile it journaled that is still under the root it left, at the home it had (not moved by hand
     * since), is one whose row a later change kept there, its write newer than the batch's: it moves now. With none,
     * it is done. Nothing can join the sources' trees meanwhile: they are merged until the batch lands.
     */
    static PreparedOperation<UserResults.Unmerged> unmerge(UserReads reads, Operation unmerge,
            List<Move> journaled) {
        reads.lock(journaled.stream().map(move -> LockTable.profile(move.pid())).toList());
        var rows = reads.profiles(journaled.stream().map(Move::pid).toList());
        var left = journaled.stream().filter(move -> {
            var row = rows.get(move.pid());
            return row != null && move.from().equals(row.uid())
                    && (row.recordedHome() == null || row.recordedHome().equals(move.home()));
        }).toList();
        if (left.isEmpty()) {
            return PreparedOperation.done(UserPlanner.unmerged(unmerge, journaled, List.of()));
        }
        return new PreparedOperation<>(null, newestWrite(rows.values(), List.of()), (at, fence) -> {
            var plan = new UserPlanBuilder();
            left.forEach(move -> {
                var row = rows.get(move.pid());
                plan.move(row.under(move.to(), row.version() + 1, at, fence, VersionKind.UNMERGED), move.from());
            });
            return plan.done(UserPlanner.unmerged(unmerge, plan.moves(), List.of()));
        });
    }

    private static UserResults.Merged merged(Operation merge, List<Move> moves) {
        var moved = new LinkedHashMap<UUID, List<UUID>>();
        var versions = new LinkedHashMap<UUID, Long>();
        moves.forEach(move -> {
            moved.computeIfAbsent(move.from(), f -> new ArrayList<>()).add(move.pid());
            versions.put(move.pid(), move.version());
        });
        return new UserResults.Merged(merge.opId(), merge.target(), moved, versions);
    }
}
