package io.profilestore.users;

import io.profilestore.api.Problem;
import io.profilestore.api.UserResults;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import io.profilestore.resources.problems.DomainExceptionMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The service's rules of users ({@link UserPlanner}, the same code the service runs) over maps in place of
 * Cassandra's tables and the merge journal, for the cases the service over its twins ({@link UsersOnTwins}) cannot
 * reach by its requests: a batch that lands late or is seen in part, rows from before trees, two unmerges
 * interleaved inside one request. Answers are the model's
 * ({@link UsersModel.Answer}), refusals mapped to problems as the service maps them. Creating and erasing, which
 * follow no rule of users but the limits, are done here as the service does them.
 */
final class UsersOnMaps implements UsersUnderTest {

    private final UserPlanner planner;
    private final UserSettings settings;
    private final Map<UUID, UserRow> users = new HashMap<>();
    private final Map<UUID, ProfileRow> profiles = new HashMap<>();
    private final Map<UUID, Set<UUID>> links = new HashMap<>();
    private final List<Operation> operations = new ArrayList<>();
    private final Map<UUID, List<Move>> moves = new HashMap<>();
    private final Map<UUID, Set<UUID>> undone = new HashMap<>();
    private long clock;

    UsersOnMaps(UserSettings settings) {
        this.settings = settings;
        this.planner = new UserPlanner(settings);
    }

    private final UserReads reads = new UserReads() {
        @Override
        public Map<UUID, UserRow> users(Collection<UUID> uids) {
            var found = new HashMap<UUID, UserRow>();
            uids.forEach(uid -> {
                if (users.containsKey(uid)) {
                    found.put(uid, users.get(uid));
                }
            });
            return found;
        }

        @Override
        public List<UUID> pidsOf(UUID uid) {
            return List.copyOf(links.getOrDefault(uid, Set.of()));
        }

        @Override
        public Map<UUID, ProfileRow> profiles(Collection<UUID> pids) {
            var found = new HashMap<UUID, ProfileRow>();
            pids.forEach(pid -> {
                if (profiles.containsKey(pid)) {
                    found.put(pid, profiles.get(pid));
                }
            });
            return found;
        }

        @Override
        public Set<UUID> everMergedInto(UUID uid) {
            var found = new LinkedHashSet<UUID>(List.of(uid));
            boolean grew = true;
            while (grew) {
                grew = false;
                for (var operation : operations) {
                    if (operation.kind() == Kind.MERGE && found.contains(operation.target())) {
                        grew |= found.addAll(operation.sources());
                    }
                }
            }
            found.remove(uid);
            return found;
        }

        @Override
        public List<Move> moves(UUID opId) {
            return moves.getOrDefault(opId, List.of());
        }

        @Override
        public Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId) {
            for (int i = operations.size() - 1; i >= 0; i--) {
                var operation = operations.get(i);
                if (operation.kind() == Kind.MERGE && operation.target().equals(target)
                        && (mergeId == null || operation.opId().equals(mergeId))
                        && (source == null || operation.sources().contains(source))) {
                    return Optional.of(operation);
                }
            }
            return Optional.empty();
        }

        @Override
        public List<UUID> undone(UUID mergeId) {
            return List.copyOf(undone.getOrDefault(mergeId, Set.of()));
        }

        @Override
        public boolean pendingOn(Collection<UUID> uids, UUID except) {
            return false; // nothing is ever interrupted here
        }

        @Override
        public void lock(Collection<String> entities) {
            // one operation at a time
        }
    };

    UserRow userRow(UUID uid) {
        return users.get(uid);
    }

    ProfileRow profileRow(UUID pid) {
        return profiles.get(pid);
    }

    /**
     * A link a late write left: {@code uid_pid} lists the profile under a user its row does not name, beside the one it
     * does (until check-tables removes it).
     */
    void strayLink(UUID uid, UUID pid) {
        links.computeIfAbsent(uid, u -> new LinkedHashSet<>()).add(pid);
    }

    /** The user as {@code GET /v1/users/{uid}} shows it: the root its row names, and the profiles under it. */
    @Override
    public UsersModel.Shown user(UUID uid) {
        var row = users.get(uid);
        if (row == null) {
            return null;
        }
        UUID root = row.merged() ? row.masterUid() : uid;
        var versions = new TreeMap<UUID, Long>();
        for (var pid : links.getOrDefault(root, Set.of())) {
            if (profiles.containsKey(pid) && root.equals(profiles.get(pid).uid())) {
                versions.put(pid, profiles.get(pid).version());
            }
        }
        return new UsersModel.Shown(root, versions);
    }

    @Override
    public UsersModel.Answer create(UUID uid) {
        var at = next();
        UUID pid = UUID.randomUUID();
        UUID newUser = UUID.randomUUID();
        if (uid == null) {
            users.put(newUser, new UserRow(newUser, null, null, 1, at, at, clock));
            uid = newUser;
        } else if (!users.containsKey(uid)) {
            return UsersModel.Answer.refused(422, "user-not-found");
        } else if (users.get(uid).merged()) {
            return UsersModel.Answer.refused(409, "user-merged");
        } else if (links.getOrDefault(uid, Set.of()).size() + 1 > settings.maxProfilesPerUser) {
            return UsersModel.Answer.refused(422, "user-full");
        }
        profiles.put(pid, new ProfileRow(pid, uid, uid, 1, "{}", at, at, clock));
        links.computeIfAbsent(uid, u -> new LinkedHashSet<>()).add(pid);
        return new UsersModel.Answer(201, null, pid, uid, null, Map.of(), Map.of(), Map.of(pid, 1L));
    }

    @Override
    public UsersModel.Answer erase(UUID pid, long ifMatch) {
        var row = profiles.get(pid);
        if (row == null) {
            return UsersModel.Answer.refused(404, "profile-not-found");
        }
        if (row.version() != ifMatch) {
            return UsersModel.Answer.refused(412, "stale-version");
        }
        profiles.remove(pid);
        links.getOrDefault(row.uid(), new HashSet<>()).remove(pid);
        return UsersModel.Answer.ok(204);
    }

    @Override
    public UsersModel.Answer move(UUID pid, long ifMatch, UUID target) {
        var before = profiles.get(pid);
        if (before == null) {
            return UsersModel.Answer.refused(404, "profile-not-found");
        }
        return answer(() -> {
            var prepared = planner.prepareMove(reads, pid, ifMatch, before.uid(), target);
            var profile = prepared.finished() != null ? prepared.finished() : apply(prepared.plan(next(), ++clock)).answer();
            return new UsersModel.Answer(200, null, pid, profile.uid(), null, Map.of(), Map.of(),
                    Map.of(pid, profile.version()));
        });
    }

    @Override
    public UsersModel.Answer merge(UUID target, List<UUID> sources) {
        UUID id = UUID.randomUUID();
        return answer(() -> {
            planner.checkMergeRequest(target, sources);
            var merge = new Operation(id, Kind.MERGE, target, List.copyOf(sources), null);
            var plan = planner.prepareMerge(reads, merge, false).plan(next(), ++clock);
            moves.put(id, plan.moves());
            apply(plan);
            operations.add(merge);
            UserResults.Merged merged = plan.answer();
            return new UsersModel.Answer(200, null, null, target, id, sets(merged.moved()), Map.of(),
                    new TreeMap<>(merged.versions()));
        });
    }

    @Override
    public UsersModel.Answer unmerge(UUID target, UUID source) {
        return answer(() -> undo(planner.unmergeOf(reads, target, source, null)));
    }

    @Override
    public UsersModel.Answer unmergeById(UUID target, UUID mergeId) {
        return answer(() -> undo(planner.unmergeOf(reads, target, null, mergeId)));
    }

    /** A profile as a version before homes were kept wrote it: no home recorded. */
    UsersModel.Answer legacyCreate(UUID uid) {
        var created = create(uid);
        var row = profiles.get(created.pid());
        profiles.put(row.pid(), new ProfileRow(row.pid(), row.uid(), null, row.version(), row.data(), row.createdAt(),
                row.updatedAt(), row.written()));
        return created;
    }

    /**
     * A merge as a version before trees did it: the source's profiles moved to the target with no home, its row's
     * master the target and no parent, the journal's moves with no home.
     */
    void legacyMerge(UUID target, UUID source) {
        var at = next();
        var id = UUID.randomUUID();
        var journal = new ArrayList<Move>();
        for (var pid : List.copyOf(links.getOrDefault(source, Set.of()))) {
            var row = profiles.get(pid);
            profiles.put(pid, new ProfileRow(pid, target, null, row.version() + 1, row.data(), row.createdAt(), at, clock));
            links.get(source).remove(pid);
            links.computeIfAbsent(target, u -> new LinkedHashSet<>()).add(pid);
            journal.add(new Move(pid, source, source, target, row.version() + 1));
        }
        var user = users.get(source);
        users.put(source, new UserRow(source, target, null, user.version() + 1, user.createdAt(), at, clock));
        operations.add(new Operation(id, Kind.MERGE, target, List.of(source), null));
        moves.put(id, journal);
    }

    /** What check-tables does to such rows: each merged user's master set to the root of its chain of parents. */
    void setMastersToRoots() {
        for (var user : List.copyOf(users.values())) {
            if (!user.merged()) {
                continue;
            }
            var at = user;
            while (at.parent() != null) {
                at = users.get(at.parent());
            }
            users.put(user.uid(), user.next(at.uid(), user.parent(), next()));
        }
    }

    /**
     * A merge whose batch lands late: recorded, its write unconfirmed and its locks given up, so {@code meanwhile} is
     * done on users whose rows do not show the merge yet; then the batch lands (a coordinator replaying it from its
     * batchlog), and then the recovery resumes the merge.
     */
    UsersModel.Answer mergeLandingLate(UUID target, List<UUID> sources, Runnable meanwhile) {
        UUID id = UUID.randomUUID();
        return answer(() -> {
            var merge = new Operation(id, Kind.MERGE, target, List.copyOf(sources), null);
            var plan = planner.prepareMerge(reads, merge, false).plan(next(), ++clock);
            moves.put(id, plan.moves());
            operations.add(merge);
            meanwhile.run();
            apply(plan);
            resume(merge, () -> planner.prepareMerge(reads, merge, true));
            return new UsersModel.Answer(503, "operation-pending", null, target, id, Map.of(), Map.of(), Map.of());
        });
    }

    /**
     * A merge whose batch is seen in part: recorded, its locks given up with only the row of {@code seen} (a profile it
     * moves) landed and that profile's links (a logged batch is seen partition by partition while it lands), then
     * {@code meanwhile} done, then the merge resumed by the recovery.
     */
    UsersModel.Answer mergeSeenInPart(UUID target, List<UUID> sources, UUID seen, Runnable meanwhile) {
        UUID id = UUID.randomUUID();
        return answer(() -> {
            var merge = new Operation(id, Kind.MERGE, target, List.copyOf(sources), null);
            var plan = planner.prepareMerge(reads, merge, false).plan(next(), ++clock);
            moves.put(id, plan.moves());
            operations.add(merge);
            plan.profiles().stream().filter(row -> row.pid().equals(seen)).forEach(row -> profiles.put(seen, row));
            plan.unlinks().stream().filter(link -> link.pid().equals(seen))
                    .forEach(link -> links.getOrDefault(link.uid(), new HashSet<>()).remove(seen));
            plan.links().stream().filter(link -> link.pid().equals(seen))
                    .forEach(link -> links.computeIfAbsent(link.uid(), u -> new LinkedHashSet<>()).add(seen));
            meanwhile.run();
            resume(merge, () -> planner.prepareMerge(reads, merge, true));
            return new UsersModel.Answer(503, "operation-pending", null, target, id, Map.of(), Map.of(), Map.of());
        });
    }

    /** An unmerge looked up, then {@code meanwhile} done, then the unmerge run: as two requests may interleave. */
    UsersModel.Answer unmergeWith(UUID target, UUID source, Runnable meanwhile) {
        return answer(() -> {
            var unmerge = planner.unmergeOf(reads, target, source, null);
            meanwhile.run();
            return undo(unmerge);
        });
    }

    private UsersModel.Answer undo(Operation unmerge) {
        var plan = planner.prepareUnmerge(reads, unmerge, false).plan(next(), ++clock);
        moves.put(unmerge.opId(), plan.moves());
        undone.computeIfAbsent(unmerge.mergeId(), m -> new HashSet<>()).addAll(unmerge.sources());
        apply(plan);
        operations.add(unmerge);
        UserResults.Unmerged unmerged = plan.answer();
        var skipped = new TreeMap<UUID, String>();
        unmerged.skipped().forEach(s -> skipped.put(s.pid(), s.uid() == null ? "erased" : "moved"));
        return new UsersModel.Answer(200, null, null, unmerged.uid(), unmerged.mergeId(), sets(unmerged.restored()), skipped,
                new TreeMap<>(unmerged.versions()));
    }

    /** The recovery: plans the operation again from what the maps hold, writes that, and journals what it moved. */
    private <A> void resume(Operation operation, Supplier<PreparedOperation<A>> resume) {
        var resumed = resume.get();
        if (resumed.finished() == null) {
            var again = apply(resumed.plan(next(), ++clock));
            var journaled = new LinkedHashMap<UUID, Move>();
            moves.get(operation.opId()).forEach(move -> journaled.put(move.pid(), move));
            again.notMoved().forEach(journaled::remove);
            again.moves().forEach(move -> journaled.put(move.pid(), move));
            moves.put(operation.opId(), List.copyOf(journaled.values()));
        }
    }

    /** Writes a plan as the service's logged batch would: every row whole, then the lists. */
    private <A> UserPlan<A> apply(UserPlan<A> plan) {
        plan.profiles().forEach(row -> profiles.put(row.pid(), row));
        plan.unlinks().forEach(link -> links.getOrDefault(link.uid(), new HashSet<>()).remove(link.pid()));
        plan.links().forEach(link -> links.computeIfAbsent(link.uid(), u -> new LinkedHashSet<>()).add(link.pid()));
        plan.users().forEach(user -> users.put(user.uid(), new UserRow(user.uid(), user.masterUid(), user.mergedInto(),
                user.version(), user.createdAt(), user.updatedAt(), clock)));
        return plan;
    }

    private static Map<UUID, Set<UUID>> sets(Map<UUID, List<UUID>> lists) {
        var sets = new LinkedHashMap<UUID, Set<UUID>>();
        lists.forEach((uid, pids) -> sets.put(uid, new LinkedHashSet<>(pids)));
        return sets;
    }

    private Instant next() {
        clock++;
        return Instant.ofEpochSecond(1_800_000_000L + clock);
    }

    /** An operation's answer; a refusal as the service's exception mapper makes it. */
    private static UsersModel.Answer answer(Supplier<UsersModel.Answer> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            Problem problem = DomainExceptionMapper.problemOf(e);
            if (problem == null) {
                throw e;
            }
            return UsersModel.Answer.refused(problem.status(), problem.type().substring(Problem.TYPE_BASE.length()));
        }
    }
}
