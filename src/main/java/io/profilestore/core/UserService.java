package io.profilestore.core;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.profilestore.api.Profile;
import io.profilestore.api.User;
import io.profilestore.api.UserResults;
import io.profilestore.db.CassandraUnavailableException;
import io.profilestore.db.EntityLocks;
import io.profilestore.db.Journal;
import io.profilestore.db.OutboxRecord;
import io.profilestore.db.PostgresUnavailableException;
import io.profilestore.db.ProfileDao;
import io.profilestore.db.ProfileRow;
import io.profilestore.db.UserOperations;
import io.profilestore.db.UserOperations.Kind;
import io.profilestore.db.UserOperations.Move;
import io.profilestore.db.UserOperations.Operation;
import io.profilestore.db.UserRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Users: the profiles one person holds, moving a profile from one user to another, merging users found to be one
 * person under a master, and undoing a merge. Every operation takes its locks like profile edits do (users first,
 * then the profiles it found under them), so it races safely with them: it fails at once with 409 and changes
 * nothing, or succeeds whole, written to Cassandra as one logged batch.
 *
 * <p>Merges and unmerges are journaled in PostgreSQL with the change. One interrupted between recording and
 * writing (a crash) is <em>resumed</em> by the recovery: done again under fresh locks, from what the journal and
 * Cassandra say, so that nothing stays half-moved.
 */
public class UserService {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(UserService.class);

    private final ProfileDao dao;
    private final ChangeRunner changes;
    private final UserOperations journal;
    private final UserSettings settings;

    public UserService(ProfileDao dao, ChangeRunner changes, UserOperations journal, UserSettings settings) {
        this.dao = dao;
        this.changes = changes;
        this.journal = journal;
        this.settings = settings;
    }

    /** A user with its profiles; a merged user answers with its master (followed at most a bounded way). */
    public User get(UUID uid) {
        UUID current = uid;
        UserRow row = null;
        for (int depth = 0; depth <= settings.getMaxChainDepth(); depth++) {
            row = dao.findUser(current).orElseThrow(() -> new UserNotFoundException(uid, true));
            if (row.masterUid() == null) {
                break;
            }
            current = row.masterUid();
        }
        if (row.masterUid() != null) {
            throw new IllegalStateException("user " + uid + " is merged more than " + settings.getMaxChainDepth() + " deep");
        }
        UUID owner = current;
        // the profile row is the truth: a link a late write left behind lists nothing it does not own
        var profiles = dao.findAll(dao.pidsOfUser(current)).values().stream()
                .filter(profile -> owner.equals(profile.uid()))
                .sorted(Comparator.comparing(ProfileRow::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
                        .thenComparing(ProfileRow::pid))
                .map(ProfileService::toProfile)
                .toList();
        return new User(current, null, uid.equals(current) ? null : uid, row.version(), profiles);
    }

    /** Moves a profile to another user; the profile's version grows by one. */
    public Profile move(UUID pid, long expectedVersion, UUID target) {
        var before = dao.find(pid).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
        UUID from = before.uid();
        return changes.underLock(List.of(EntityLocks.profile(pid), EntityLocks.user(from), EntityLocks.user(target)), change -> {
            var current = dao.find(pid).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
            if (!Objects.equals(current.uid(), from)) {
                throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                        "the profile moved to another user meanwhile; read it again and retry");
            }
            if (current.version() != expectedVersion) {
                throw new VersionMismatchException(Map.of(pid, current.version()));
            }
            if (target.equals(from)) {
                return ProfileService.toProfile(current);
            }
            usable(dao.findUser(target).orElseThrow(() -> new UserNotFoundException(target)));
            int holds = dao.pidsOfUser(target).size();
            if (holds + 1 > settings.getMaxProfilesPerUser()) {
                throw new UserFullException(target, holds + 1, settings.getMaxProfilesPerUser());
            }
            change.fenceAbove(current.written());
            var lease = change.lease();
            var next = new ProfileRow(pid, target, current.version() + 1, current.data(), current.createdAt(),
                    lease.timestamp(), lease.fence());
            change.commit(List.of(OutboxRecord.profile(pid, next.version(), lease.fence())),
                    List.of(dao.putProfile(next), dao.unlinkProfile(from, pid), dao.linkProfile(target, pid)));
            return ProfileService.toProfile(next);
        });
    }

    /**
     * Moves a profile left under a merged user (a late write can leave one there) to that user's master, as the
     * merge would have: everything is looked at again under the locks of the profile, its user and the master.
     * Returns false when there is nothing to do (any more).
     */
    public boolean moveToMasterIfMerged(UUID pid) {
        var before = dao.find(pid).orElse(null);
        if (before == null) {
            return false;
        }
        UUID owner = before.uid();
        UUID master = masterOf(owner);
        if (master == null) {
            return false;
        }
        return changes.underLock(List.of(EntityLocks.profile(pid), EntityLocks.user(owner), EntityLocks.user(master)),
                change -> {
                    var current = dao.find(pid).orElse(null);
                    if (current == null || !owner.equals(current.uid()) || !master.equals(masterOf(owner))) {
                        return false;
                    }
                    var users = dao.findUsers(List.of(owner, master));
                    int holds = dao.pidsOfUser(master).size();
                    if (holds + 1 > settings.getMaxProfilesPerUser()) {
                        throw new UserFullException(master, holds + 1, settings.getMaxProfilesPerUser());
                    }
                    change.fenceAbove(newestWrite(List.of(current), users.values()));
                    var lease = change.lease();
                    var next = new ProfileRow(pid, master, current.version() + 1, current.data(), current.createdAt(),
                            lease.timestamp(), lease.fence());
                    change.commit(List.of(OutboxRecord.profile(pid, next.version(), lease.fence())),
                            List.of(dao.putProfile(next), dao.unlinkProfile(owner, pid), dao.linkProfile(master, pid)));
                    return true;
                });
    }

    /** The end of a merged user's chain of masters, or null when the user is not merged (or the chain is broken). */
    private UUID masterOf(UUID uid) {
        UUID current = uid;
        for (int depth = 0; depth <= settings.getMaxChainDepth(); depth++) {
            var user = dao.findUser(current).orElse(null);
            if (user == null) {
                return null;
            }
            if (user.masterUid() == null) {
                return current.equals(uid) ? null : current;
            }
            current = user.masterUid();
        }
        return null;
    }

    /** Merges the sources into the target: every profile of a source moves, each source points to the target. */
    public UserResults.Merged merge(UUID target, List<UUID> sources) {
        if (sources == null || sources.isEmpty()) {
            throw invalid("sources must name at least one user");
        }
        if (sources.size() > settings.getMaxMergeSources()) {
            throw invalid("a merge takes at most " + settings.getMaxMergeSources() + " sources, not " + sources.size());
        }
        if (sources.stream().anyMatch(java.util.Objects::isNull)) {
            throw invalid("sources must be uids, not null");
        }
        if (new HashSet<>(sources).size() != sources.size()) {
            throw invalid("a source appears more than once");
        }
        if (sources.contains(target)) {
            throw invalid("a user cannot be merged into itself");
        }
        return runMerge(new Operation(UUID.randomUUID(), Kind.MERGE, target, List.copyOf(sources), null), Map.of(), false);
    }

    /**
     * Undoes a merge for one source (or for every source of a merge, by its id): exactly the profiles that merge
     * moved go back, but for those moved or erased since, which are reported and left where they are.
     */
    public UserResults.Unmerged unmerge(UUID target, UUID source, UUID mergeId) {
        if ((source == null) == (mergeId == null)) {
            throw invalid("give either source or mergeId");
        }
        var merge = journal.mergeToUndo(target, source, mergeId).orElseThrow(() -> new UserOperationException(
                UserOperationException.Kind.NOT_FOUND, source != null
                        ? "user " + source + " was not merged into " + target
                        : "no merge " + mergeId + " into " + target));
        var undone = journal.undone(merge.opId());
        var sources = new ArrayList<>(source != null ? List.of(source) : merge.sources());
        sources.removeAll(undone);
        if (sources.isEmpty()) {
            throw new UserOperationException(UserOperationException.Kind.NOT_FOUND, "that merge is undone already");
        }
        return runUnmerge(new Operation(UUID.randomUUID(), Kind.UNMERGE, target, sources, merge.opId()), false);
    }

    /** Completes an operation a crash interrupted (see the class comment). */
    public void resume(Operation operation) {
        if (operation.kind() == Kind.MERGE) {
            runMerge(operation, journal.moves(operation.opId()), true);
        } else {
            runUnmerge(operation, true);
        }
    }

    private UserResults.Merged runMerge(Operation merge, Map<UUID, List<UUID>> journaled, boolean resume) {
        UUID target = merge.target();
        var userLocks = new ArrayList<String>(List.of(EntityLocks.user(target)));
        merge.sources().forEach(source -> userLocks.add(EntityLocks.user(source)));
        return changes.underLock(userLocks, change -> {
            if (resume && !journal.isPending(merge.opId())) {
                return new UserResults.Merged(merge.opId(), target, journaled); // finished meanwhile, by its request
            }
            var users = dao.findUsers(withTarget(target, merge.sources()));
            if (resume && merge.sources().stream().allMatch(s -> users.get(s) != null && target.equals(users.get(s).masterUid()))) {
                // the interrupted run's batch landed: every source points to the target, and the same logged
                // batch moved their profiles
                finish(merge);
                return new UserResults.Merged(merge.opId(), target, journaled);
            }
            var targetUser = usable(users.get(target) == null ? missing(target) : users.get(target));
            for (UUID source : merge.sources()) {
                var user = users.get(source) == null ? missing(source) : users.get(source);
                if (user.masterUid() != null && !(resume && target.equals(user.masterUid()))) {
                    throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                            "user " + source + " is merged into " + user.masterUid() + " already");
                }
            }
            // what moves: every profile a source holds now, and (resuming) what the journal says was moving
            var moving = new LinkedHashMap<UUID, UUID>();
            for (UUID source : merge.sources()) {
                dao.pidsOfUser(source).forEach(pid -> moving.put(pid, source));
            }
            journaled.forEach((from, pids) -> pids.forEach(pid -> moving.putIfAbsent(pid, from)));
            change.lockMore(moving.keySet().stream().map(EntityLocks::profile).toList());

            var rows = dao.findAll(moving.keySet());
            // the limits hold for a resumed merge too: its users may hold more now than when it was recorded, and
            // one that would break them is abandoned (its batch did not land, or we would not be here). What counts
            // is what still moves: a journaled profile erased or moved away since stays where it is.
            int holds = dao.pidsOfUser(target).size();
            long stillMoving = moving.entrySet().stream()
                    .filter(e -> rows.get(e.getKey()) != null && e.getValue().equals(rows.get(e.getKey()).uid()))
                    .count();
            if (holds + stillMoving > settings.getMaxProfilesPerUser()) {
                throw new UserFullException(target, (int) (holds + stillMoving), settings.getMaxProfilesPerUser());
            }
            change.fenceAbove(newestWrite(rows.values(), users.values()));
            var lease = change.lease();
            var statements = new ArrayList<BoundStatement>();
            var records = new ArrayList<OutboxRecord>();
            var moves = new ArrayList<Move>();
            var moved = new LinkedHashMap<UUID, List<UUID>>();
            long bytes = 0;
            for (var entry : moving.entrySet()) {
                UUID pid = entry.getKey();
                UUID from = entry.getValue();
                var row = rows.get(pid);
                if (row == null || !(from.equals(row.uid()) || target.equals(row.uid()))) {
                    continue; // erased, or moved elsewhere: not this merge's to move
                }
                boolean movedAlready = target.equals(row.uid()); // by the interrupted run's batch
                var next = new ProfileRow(pid, target, movedAlready ? row.version() : row.version() + 1, row.data(),
                        row.createdAt(), movedAlready ? row.updatedAt() : lease.timestamp(), lease.fence());
                statements.addAll(List.of(dao.putProfile(next), dao.unlinkProfile(from, pid), dao.linkProfile(target, pid)));
                records.add(OutboxRecord.profile(pid, next.version(), lease.fence()));
                moves.add(new Move(pid, from));
                moved.computeIfAbsent(from, f -> new ArrayList<>()).add(pid);
                bytes += row.data().length();
            }
            if (bytes > settings.getMaxMergeSize().toBytes()) {
                throw new UserOperationException(UserOperationException.Kind.TOO_LARGE, "the merge would rewrite "
                        + bytes + " bytes of documents in one batch; the limit is " + settings.getMaxMergeSize()
                        + ": merge fewer users at a time");
            }
            for (UUID source : merge.sources()) {
                var user = users.get(source);
                statements.add(dao.putUser(target.equals(user.masterUid()) ? user : user.next(target, lease.timestamp())));
            }
            statements.add(dao.putUser(targetUser.next(null, lease.timestamp())));
            Journal record = resume ? journal.moreMoves(merge.opId(), moves) : journal.recordMerge(merge, moves);
            commitJournaled(change, merge, records, statements, record, resume);
            finish(merge);
            return new UserResults.Merged(merge.opId(), target, moved);
        });
    }

    private UserResults.Unmerged runUnmerge(Operation unmerge, boolean resume) {
        UUID target = unmerge.target();
        var userLocks = new ArrayList<String>(List.of(EntityLocks.user(target)));
        unmerge.sources().forEach(source -> userLocks.add(EntityLocks.user(source)));
        return changes.underLock(userLocks, change -> {
            if (resume && !journal.isPending(unmerge.opId())) {
                return new UserResults.Unmerged(unmerge.mergeId(), target, Map.of(), List.of()); // finished meanwhile
            }
            var users = dao.findUsers(withTarget(target, unmerge.sources()));
            var targetUser = users.get(target) == null ? missing(target) : users.get(target);
            for (UUID source : unmerge.sources()) {
                var user = users.get(source) == null ? missing(source) : users.get(source);
                if (!target.equals(user.masterUid()) && !(resume && user.masterUid() == null)) {
                    throw new UserOperationException(UserOperationException.Kind.CONFLICT,
                            "user " + source + " is no longer merged into " + target);
                }
            }
            var moved = journal.moves(unmerge.mergeId());
            var pids = new ArrayList<UUID>();
            unmerge.sources().forEach(source -> pids.addAll(moved.getOrDefault(source, List.of())));
            change.lockMore(pids.stream().map(EntityLocks::profile).toList());

            var rows = dao.findAll(pids);
            change.fenceAbove(newestWrite(rows.values(), users.values()));
            var lease = change.lease();
            var statements = new ArrayList<BoundStatement>();
            var records = new ArrayList<OutboxRecord>();
            var restored = new LinkedHashMap<UUID, List<UUID>>();
            var skipped = new ArrayList<UserResults.Skipped>();
            for (UUID source : unmerge.sources()) {
                for (UUID pid : moved.getOrDefault(source, List.of())) {
                    var row = rows.get(pid);
                    if (row == null) {
                        skipped.add(new UserResults.Skipped(pid, "erased since the merge"));
                        continue;
                    }
                    boolean backAlready = resume && source.equals(row.uid());
                    if (!target.equals(row.uid()) && !backAlready) {
                        skipped.add(new UserResults.Skipped(pid, "moved to user " + row.uid() + " since the merge"));
                        continue;
                    }
                    var next = new ProfileRow(pid, source, backAlready ? row.version() : row.version() + 1, row.data(),
                            row.createdAt(), backAlready ? row.updatedAt() : lease.timestamp(), lease.fence());
                    statements.addAll(List.of(dao.putProfile(next), dao.unlinkProfile(target, pid), dao.linkProfile(source, pid)));
                    records.add(OutboxRecord.profile(pid, next.version(), lease.fence()));
                    restored.computeIfAbsent(source, s -> new ArrayList<>()).add(pid);
                }
                var user = users.get(source);
                statements.add(dao.putUser(user.masterUid() == null ? user : user.next(null, lease.timestamp())));
            }
            statements.add(dao.putUser(targetUser.next(null, lease.timestamp())));
            commitJournaled(change, unmerge, records, statements, resume ? Journal.NONE : journal.recordUnmerge(unmerge),
                    resume);
            finish(unmerge);
            return new UserResults.Unmerged(unmerge.mergeId(), target, restored, skipped);
        });
    }

    /**
     * Records and writes a journaled operation, and makes its failure tell the truth. The journal is committed
     * with the change's record; once it is, the recovery completes the operation later, so a failure after that
     * is not "nothing was changed": unless the write surely did not happen and the operation can be abandoned
     * before the recovery takes it, the answer is that it is pending. (The recovery's own attempts just fail and
     * are tried again.)
     */
    private void commitJournaled(ChangeRunner.Change change, Operation operation, List<OutboxRecord> records,
            List<BoundStatement> statements, Journal record, boolean resume) {
        try {
            change.commit(records, statements, record);
        } catch (PostgresUnavailableException e) {
            if (!resume && e.commitUnconfirmed()) {
                throw new OperationPendingException(operation.opId(), operation.kind(), operation.target(), e);
            }
            throw e; // not recorded: nothing was changed
        } catch (CassandraUnavailableException e) {
            if (resume || !e.maybeApplied() && abandoned(operation, change)) {
                throw e;
            }
            throw new OperationPendingException(operation.opId(), operation.kind(), operation.target(), e);
        }
    }

    /**
     * Abandons an operation whose write surely did not happen, while its locks are still ours (no recovery can be
     * resuming it then); false if that cannot be made sure now.
     */
    private boolean abandoned(Operation operation, ChangeRunner.Change change) {
        try {
            return journal.abandonWhileHolding(operation.opId(), change.lease());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Marks an operation applied; should PostgreSQL fail now, the recovery finds it applied and marks it then. */
    private void finish(Operation operation) {
        try {
            journal.finish(operation.opId(), true);
        } catch (RuntimeException e) {
            LOG.warn("operation {} is applied but could not be marked so; the recovery will: {}", operation.opId(), e.toString());
        }
    }

    /** The latest write time of the rows an operation replaces. */
    private static long newestWrite(Collection<ProfileRow> profiles, Collection<UserRow> users) {
        return Math.max(profiles.stream().mapToLong(ProfileRow::written).max().orElse(0),
                users.stream().mapToLong(UserRow::written).max().orElse(0));
    }

    /** A user new profiles may go to: not merged into another. */
    private static UserRow usable(UserRow user) {
        if (user.masterUid() != null) {
            throw new UserMergedException(user.uid(), user.masterUid());
        }
        return user;
    }

    private static UserRow missing(UUID uid) {
        throw new UserNotFoundException(uid);
    }

    private static List<UUID> withTarget(UUID target, List<UUID> sources) {
        var all = new ArrayList<>(sources);
        all.add(target);
        return all;
    }

    private static UserOperationException invalid(String message) {
        return new UserOperationException(UserOperationException.Kind.INVALID, message);
    }
}
