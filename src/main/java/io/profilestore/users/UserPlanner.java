package io.profilestore.users;

import static io.profilestore.users.UserTrees.batchShows;
import static io.profilestore.users.UserTrees.below;
import static io.profilestore.users.UserTrees.bytes;
import static io.profilestore.users.UserTrees.existing;
import static io.profilestore.users.UserTrees.newestWrite;
import static io.profilestore.users.UserTrees.notMoved;
import static io.profilestore.users.UserTrees.refuseWhilePending;
import static io.profilestore.users.UserTrees.withTarget;

import io.profilestore.api.Profile;
import io.profilestore.api.UserResults;
import io.profilestore.change.LockTable;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import io.profilestore.change.VersionKind;
import io.profilestore.profiles.ProfileNotFoundException;
import io.profilestore.profiles.ProfileService;
import io.profilestore.profiles.UserFullException;
import io.profilestore.profiles.UserMergedException;
import io.profilestore.profiles.VersionMismatchException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The rules of users, apart from where they are kept: what a merge, an unmerge and a move of a profile read, refuse
 * and write. Merges form a forest: a merged user's parent is the user it was merged into, its master the root of its
 * tree. Every profile has a home, the user it belongs to in its own right (created under it or moved to it by hand),
 * and is under the root of its home's tree. So:
 * <ul>
 * <li>a merge makes each source (a root) a child of the target (a root): everything in the sources' trees is under
 * the target from then on;</li>
 * <li>an unmerge cuts one source from the user it was merged into: the source is a root again, with every user
 * merged into it before, and every profile whose home is among them comes back under it, wherever later merges
 * took the tree. Profiles that merge moved which were moved by hand or erased since stay where they are and are
 * reported; nothing else changes;</li>
 * <li>a move by hand gives the profile a new home.</li>
 * </ul>
 * Each operation is planned in two steps: {@code prepare*} reads through {@link UserReads} (locking what it finds),
 * refuses what breaks a rule or a limit, and says how new the rows it read are; {@link PreparedOperation#plan} then says what
 * to write at a fence above them. Neither writes anything.
 */
public final class UserPlanner {

    private final UserSettings settings;

    public UserPlanner(UserSettings settings) {
        this.settings = settings;
    }

    /** The checks of a merge that need no reading. */
    public void checkMergeRequest(UUID target, List<UUID> sources) {
        if (sources == null || sources.isEmpty()) {
            throw invalid("sources must name at least one user");
        }
        if (sources.size() > settings.maxMergeSources) {
            throw invalid("a merge takes at most " + settings.maxMergeSources + " sources, not " + sources.size());
        }
        if (sources.stream().anyMatch(Objects::isNull)) {
            throw invalid("sources must be uids, not null");
        }
        if (new HashSet<>(sources).size() != sources.size()) {
            throw invalid("a source appears more than once");
        }
        if (sources.contains(target)) {
            throw invalid("a user cannot be merged into itself");
        }
    }

    /** The unmerge that undoes a merge for one source, or for every source of a merge not undone yet (by its id). */
    public Operation unmergeOf(UserReads reads, UUID target, UUID source, UUID mergeId) {
        if ((source == null) == (mergeId == null)) {
            throw invalid("give either source or mergeId");
        }
        var merge = reads.mergeToUndo(target, source, mergeId).orElseThrow(() -> new UserOperationException(
                UserOperationException.Kind.NOT_FOUND, source != null
                        ? "user " + source + " was not merged into " + target
                        : "no merge " + mergeId + " into " + target));
        var undone = reads.undone(merge.opId());
        var sources = new ArrayList<>(source != null ? List.of(source) : merge.sources());
        sources.removeAll(undone);
        if (sources.isEmpty()) {
            throw new UserOperationException(UserOperationException.Kind.NOT_FOUND, "that merge is undone already");
        }
        return new Operation(UUID.randomUUID(), Kind.UNMERGE, target, sources, merge.opId());
    }

    /**
     * A merge, its target's and sources' locks held. Resuming an interrupted one, what it journaled is read, and
     * rows its batch may have written already are taken as they are; one whose batch shows on a row is not limited
     * again ({@link UserTrees#batchShows}); one whose batch landed: {@link LandedResumes}.
     */
    public PreparedOperation<UserResults.Merged> prepareMerge(UserReads reads, Operation merge, boolean resume) {
        UUID target = merge.target();
        var users = reads.users(withTarget(target, merge.sources()));
        var journaled = resume ? reads.moves(merge.opId()) : List.<Move>of();
        if (resume && merge.sources().stream().allMatch(s -> users.get(s) != null && target.equals(users.get(s).parent()))) {
            return LandedResumes.merge(reads, merge, journaled);
        }
        var targetUser = existing(users, target);
        if (targetUser.merged()) {
            throw new UserMergedException(target, targetUser.masterUid());
        }
        for (UUID source : merge.sources()) {
            var user = existing(users, source);
            if (user.merged() && !(resume && target.equals(user.parent()))) {
                throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                        "user " + source + " is merged into " + user.parent() + " already");
            }
        }
        // every user merged into a source comes along: its root becomes the target
        var members = new LinkedHashMap<UUID, Collection<UserRow>>();
        var tree = new HashSet<>(below(reads, target, target).keySet());
        tree.add(target);
        for (UUID source : merge.sources()) {
            var below = new LinkedHashMap<>(below(reads, source, source));
            if (resume) {
                below.putAll(below(reads, source, target));
            }
            members.put(source, below.values());
            tree.add(source);
            tree.addAll(below.keySet());
        }
        if (!resume) {
            checkTreeSize(tree.size()); // before the members' locks are taken
        }
        var memberIds = members.values().stream().flatMap(Collection::stream).map(UserRow::uid).toList();
        reads.lock(memberIds.stream().map(LockTable::user).toList());
        refuseWhilePending(reads, merge, withTarget(target, Stream.concat(merge.sources().stream(), memberIds.stream()).toList()));

        // what moves: every profile a source lists now, and (resuming) what the journal says was moving
        var moving = new LinkedHashSet<UUID>();
        merge.sources().forEach(source -> moving.addAll(reads.pidsOf(source)));
        journaled.forEach(move -> moving.add(move.pid()));
        reads.lock(moving.stream().map(LockTable::profile).toList());
        var rows = reads.profiles(moving);
        // the row says which source a profile is under, not a list: a late write's link can list it under another
        // user, a source of this merge too; a resumed merge takes the rows its batch moved already as they are
        var taken = new LinkedHashMap<UUID, UUID>();
        for (UUID pid : moving) {
            var row = rows.get(pid);
            var move = journaledMove(journaled, pid);
            if (row != null && merge.sources().contains(row.uid())) {
                taken.put(pid, row.uid());
            } else if (row != null && move != null && target.equals(row.uid())) {
                taken.put(pid, move.from());
            }
        }
        // the limits hold for a resumed merge too, its users may hold more now than when it was recorded; unless its
        // batch shows on a row: then it lands whole in the end, and stands
        if (!resume || !batchShows(reads, merge)) {
            checkTreeSize(tree.size());
            int holds = reads.pidsOf(target).size();
            long stillMoving = taken.entrySet().stream().filter(e -> e.getValue().equals(rows.get(e.getKey()).uid()))
                    .count();
            if (holds + stillMoving > settings.maxProfilesPerUser) {
                throw new UserFullException(target, (int) (holds + stillMoving), settings.maxProfilesPerUser);
            }
            checkSize("merge", taken.keySet().stream().map(rows::get).toList());
        }
        long newest = newestWrite(rows.values(), Stream.concat(users.values().stream(),
                members.values().stream().flatMap(Collection::stream)).toList());
        return new PreparedOperation<>(null, newest, (at, fence) -> {
            var plan = new UserPlanBuilder();
            taken.forEach((pid, from) -> {
                var row = rows.get(pid);
                if (target.equals(row.uid())) {
                    plan.movedAlready(row, from, journaledMove(journaled, pid));
                } else {
                    plan.move(row.under(target, row.version() + 1, at, fence, VersionKind.MERGED), from);
                }
            });
            for (UUID source : merge.sources()) {
                var user = users.get(source);
                plan.user(target.equals(user.parent()) ? user : user.next(target, target, at));
                for (var member : members.get(source)) {
                    plan.user(target.equals(member.masterUid()) ? member : member.next(target, member.parent(), at));
                }
            }
            plan.user(targetUser.next(null, null, at));
            notMoved(journaled, taken.keySet(), rows).forEach(plan::notMoved);
            return plan.done(new UserResults.Merged(merge.opId(), target, plan.movedByOrigin(), plan.versions()));
        });
    }

    /**
     * An unmerge, the locks of the user its sources were merged into and of the sources held. Resuming an
     * interrupted one, rows its batch may have written already are taken as they are, and one whose batch shows on
     * a row is not limited again; one whose batch landed: {@link LandedResumes}.
     */
    public PreparedOperation<UserResults.Unmerged> prepareUnmerge(UserReads reads, Operation unmerge, boolean resume) {
        UUID target = unmerge.target();
        var users = new LinkedHashMap<>(reads.users(withTarget(target, unmerge.sources())));
        var journaled = resume ? reads.moves(unmerge.opId()) : List.<Move>of();
        if (resume && unmerge.sources().stream().allMatch(s -> users.get(s) != null && users.get(s).parent() == null)) {
            return LandedResumes.unmerge(reads, unmerge, journaled);
        }
        var targetUser = existing(users, target);
        UUID root = targetUser.merged() ? targetUser.masterUid() : target;
        if (!root.equals(target)) {
            // the target was merged on since: its tree's root is written too (its version), and held like the rest
            reads.lock(List.of(LockTable.user(root)));
            users.putAll(reads.users(List.of(root)));
        }
        var rootUser = existing(users, root);
        if (!resume && unmerge.sources().stream().anyMatch(reads.undone(unmerge.mergeId())::contains)) {
            // undone by another unmerge since it was looked up, before these locks were ours
            throw new UserOperationException(UserOperationException.Kind.NOT_FOUND, "that merge is undone already");
        }
        for (UUID source : unmerge.sources()) {
            var user = existing(users, source);
            if (!target.equals(user.parent()) && !(resume && user.parent() == null)) {
                throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                        "user " + source + " is no longer merged into " + target);
            }
        }
        // what comes out with each source: the users merged into it before, and the profiles whose home is among them
        var subtrees = new LinkedHashMap<UUID, Map<UUID, UserRow>>();
        for (UUID source : unmerge.sources()) {
            var tree = new LinkedHashMap<>(below(reads, source, root));
            if (resume) {
                tree.putAll(below(reads, source, source));
            }
            subtrees.put(source, tree);
        }
        var memberIds = subtrees.values().stream().flatMap(tree -> tree.keySet().stream()).toList();
        reads.lock(memberIds.stream().map(LockTable::user).toList());
        var touched = new ArrayList<>(withTarget(target, unmerge.sources()));
        touched.add(root);
        touched.addAll(memberIds);
        refuseWhilePending(reads, unmerge, touched);

        var merged = new LinkedHashMap<UUID, Move>();
        reads.moves(unmerge.mergeId()).stream().filter(move -> unmerge.sources().contains(move.from()))
                .forEach(move -> merged.put(move.pid(), move));
        var pids = new LinkedHashSet<>(reads.pidsOf(root));
        pids.addAll(merged.keySet());
        journaled.forEach(move -> pids.add(move.pid()));
        reads.lock(pids.stream().map(LockTable::profile).toList());
        var rows = reads.profiles(pids);
        var backAlready = new HashSet<UUID>();
        journaled.forEach(move -> {
            var row = rows.get(move.pid());
            if (row != null && move.to().equals(row.uid())) {
                backAlready.add(move.pid());
            }
        });
        // where each profile of the tree goes: under the source whose subtree holds its home
        var returning = new LinkedHashMap<UUID, UUID>();
        for (var row : rows.values()) {
            boolean under = root.equals(row.uid()) || backAlready.contains(row.pid());
            UUID home = homeOf(row, merged.get(row.pid()));
            for (UUID source : unmerge.sources()) {
                if (under && (source.equals(home) || subtrees.get(source).containsKey(home))) {
                    returning.put(row.pid(), source);
                }
            }
        }
        if (!resume || !batchShows(reads, unmerge)) {
            checkSize("unmerge", returning.keySet().stream().map(rows::get).toList());
        }
        long newest = newestWrite(rows.values(), Stream.concat(users.values().stream(),
                subtrees.values().stream().flatMap(tree -> tree.values().stream())).toList());
        return new PreparedOperation<>(null, newest, (at, fence) -> {
            var plan = new UserPlanBuilder();
            returning.forEach((pid, source) -> {
                var row = rows.get(pid);
                if (backAlready.contains(pid)) {
                    plan.movedAlready(row, root, journaledMove(journaled, pid));
                } else {
                    plan.move(row.under(source, row.version() + 1, at, fence, VersionKind.UNMERGED), root);
                }
            });
            for (UUID source : unmerge.sources()) {
                var user = users.get(source);
                plan.user(user.parent() == null ? user : user.next(null, null, at));
                for (var member : subtrees.get(source).values()) {
                    plan.user(source.equals(member.masterUid()) ? member : member.next(source, member.parent(), at));
                }
            }
            plan.user(rootUser.next(null, null, at));
            notMoved(journaled, returning.keySet(), rows).forEach(plan::notMoved);
            var skipped = new ArrayList<UserResults.Skipped>();
            merged.values().forEach(move -> {
                var row = rows.get(move.pid());
                if (row == null) {
                    skipped.add(new UserResults.Skipped(move.pid(), "erased since the merge", null));
                } else if (!returning.containsKey(move.pid()) && row.recordedHome() != null
                        && !row.recordedHome().equals(move.home())) {
                    skipped.add(new UserResults.Skipped(move.pid(), "moved to user " + row.uid() + " since the merge",
                            row.uid()));
                }
                // at home still but not returning: an earlier unmerge took its user out of the tree
            });
            return plan.done(unmerged(unmerge, plan.moves(), skipped));
        });
    }

    private static Move journaledMove(List<Move> journaled, UUID pid) {
        return journaled.stream().filter(move -> move.pid().equals(pid)).findFirst().orElse(null);
    }

    /**
     * A profile's home for an unmerge: the one its row records, or for a row from before homes were kept, the one the
     * merge's journal says it came from (else the user it is under).
     */
    private static UUID homeOf(ProfileRow row, Move merged) {
        return row.recordedHome() != null ? row.recordedHome() : merged != null ? merged.home() : row.uid();
    }

    /** A profile moved by hand to {@code target}: its new home. The profile's, its user's and the target's locks held. */
    public PreparedOperation<Profile> prepareMove(UserReads reads, UUID pid, long expectedVersion, UUID from, UUID target) {
        var current = reads.profiles(List.of(pid)).get(pid);
        if (current == null) {
            throw new ProfileNotFoundException(List.of(pid));
        }
        if (!from.equals(current.uid())) {
            throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                    "the profile moved to another user meanwhile; read it again and retry");
        }
        if (current.version() != expectedVersion) {
            throw new VersionMismatchException(Map.of(pid, current.version()));
        }
        var targetUser = existing(reads.users(List.of(target)), target);
        if (targetUser.merged()) {
            throw new UserMergedException(target, targetUser.masterUid());
        }
        if (target.equals(from) && target.equals(current.recordedHome())) {
            return PreparedOperation.done(ProfileService.toProfile(current)); // where it belongs already
        }
        if (!target.equals(from)) {
            int holds = reads.pidsOf(target).size();
            if (holds + 1 > settings.maxProfilesPerUser) {
                throw new UserFullException(target, holds + 1, settings.maxProfilesPerUser);
            }
        }
        return new PreparedOperation<>(null, current.written(), (at, fence) -> {
            var next = new ProfileRow(pid, target, target, current.version() + 1, current.data(), current.createdAt(),
                    at, fence, null, VersionKind.MOVED);
            var plan = new UserPlanBuilder();
            plan.rewrite(next);
            if (!target.equals(from)) {
                plan.relist(from, target, pid);
            }
            return plan.done(ProfileService.toProfile(next));
        });
    }

    private void checkTreeSize(int users) {
        if (users > settings.maxMergedUsers) {
            throw new UserOperationException(UserOperationException.Kind.TOO_LARGE, "the merged user would hold "
                    + users + " users; the limit is " + settings.maxMergedUsers
                    + " (users.maxMergedUsers): a merge rewrites every one of them", settings.maxMergedUsers);
        }
    }

    /** One batch holds at most users.maxMergeSize of documents: Cassandra refuses a batch past its threshold. */
    private void checkSize(String operation, Collection<ProfileRow> rows) {
        long bytes = bytes(rows);
        if (bytes > settings.maxMergeSize.toBytes()) {
            throw new UserOperationException(UserOperationException.Kind.TOO_LARGE, "the " + operation + " would rewrite "
                    + bytes + " bytes of documents in one batch; the limit is " + settings.maxMergeSize
                    + " (users.maxMergeSize): " + ("merge".equals(operation) ? "merge fewer users at a time"
                    : "move some of the profiles to their users by hand first"));
        }
    }

    static UserResults.Unmerged unmerged(Operation unmerge, List<Move> moves, List<UserResults.Skipped> skipped) {
        var restored = new LinkedHashMap<UUID, List<UUID>>();
        var versions = new LinkedHashMap<UUID, Long>();
        moves.forEach(move -> {
            restored.computeIfAbsent(move.to(), t -> new ArrayList<>()).add(move.pid());
            versions.put(move.pid(), move.version());
        });
        return new UserResults.Unmerged(unmerge.mergeId(), unmerge.opId(), unmerge.target(), restored, skipped, versions);
    }

    private static UserOperationException invalid(String message) {
        return new UserOperationException(UserOperationException.Kind.INVALID, message);
    }
}
