package io.profilestore.users;

import io.profilestore.api.Profile;
import io.profilestore.api.User;
import io.profilestore.api.UserResults;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.JournalEntry;
import io.profilestore.change.LockTable;
import io.profilestore.change.Origin;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite;
import io.profilestore.change.RowWrite.ForgetVersion;
import io.profilestore.change.RowWrite.LinkProfile;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.PutUser;
import io.profilestore.change.RowWrite.RecordVersion;
import io.profilestore.change.RowWrite.UnlinkProfile;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import io.profilestore.change.UserRow;
import io.profilestore.change.VersionKind;
import io.profilestore.profiles.ProfileNotFoundException;
import io.profilestore.profiles.ProfileService;
import io.profilestore.profiles.UserNotFoundException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Users: the profiles one person holds, moving a profile from one user to another, merging users found to be one
 * person, and undoing a merge. {@link UserPlanner} holds the rules; this class runs each operation on the write path
 * of every change: it takes the users' locks, lets the planner read (and lock what it finds: the profiles, the
 * other users of the trees), fences above what was read, records, and writes the plan to Cassandra as one logged
 * batch. So an operation races safely with profile edits and other operations: it fails at once with 409 and
 * changes nothing, or succeeds whole.
 *
 * <p>Merges and unmerges are journaled in PostgreSQL with the change. One interrupted between recording and
 * writing (a crash) is <em>resumed</em> by the recovery: planned again under fresh locks, from what the journal and
 * Cassandra say, so that nothing stays half-moved.
 */
public class UserService {

    private static final Logger LOG = LoggerFactory.getLogger(UserService.class);

    private final ProfileRows dao;
    private final ChangeRunner changes;
    private final UserJournal journal;
    private final UserSettings settings;
    private final UserPlanner planner;

    public UserService(ProfileRows dao, ChangeRunner changes, UserJournal journal, UserSettings settings) {
        this.dao = dao;
        this.changes = changes;
        this.journal = journal;
        this.settings = settings;
        this.planner = new UserPlanner(settings);
    }

    /**
     * A user with its profiles; a merged user answers with the root of its tree, which its row names. Should the
     * table disagree with itself (a root that is merged too, until check-tables repairs it), what it says is
     * followed as far as it goes, a bounded way.
     */
    public User get(UUID uid) {
        var row = dao.findUser(uid).orElseThrow(() -> new UserNotFoundException(uid, true));
        var seen = new HashSet<UUID>(List.of(uid));
        while (row.merged() && seen.size() <= settings.maxMergedUsers && seen.add(row.masterUid())) {
            var master = dao.findUser(row.masterUid()).orElse(null);
            if (master == null) {
                LOG.warn("user {} names master {}, which has no row; check-tables repairs it", row.uid(), row.masterUid());
                break;
            }
            row = master;
        }
        UUID owner = row.uid();
        // the profile row is the truth: a link a late write left behind lists nothing it does not own
        var profiles = dao.findAll(dao.pidsOfUser(owner)).values().stream()
                .filter(profile -> owner.equals(profile.uid()))
                .sorted(Comparator.comparing(ProfileRow::createdAt, Comparator.nullsLast(Comparator.naturalOrder()))
                        .thenComparing(ProfileRow::pid))
                .map(ProfileService::toProfile)
                .toList();
        return new User(owner, null, uid.equals(owner) ? null : uid, row.version(), profiles);
    }

    /** Moves a profile to another user by hand: that user is its home from now on; its version grows by one. */
    public Profile move(Origin origin, UUID pid, long expectedVersion, UUID target) {
        var before = dao.find(pid).orElseThrow(() -> new ProfileNotFoundException(List.of(pid)));
        UUID from = before.uid();
        return changes.underLock(origin, List.of(LockTable.profile(pid), LockTable.user(from), LockTable.user(target)),
                change -> run(change, planner.prepareMove(new StoredUserReads(dao, journal, change), pid, expectedVersion, from, target), null,
                        false));
    }

    /**
     * Puts a profile under the root of its home's tree when it is not (a late write can leave one elsewhere), as the
     * merges and unmerges would have: everything is looked at again under the locks of the profile, the user it is
     * under and the root. A merge or unmerge of those users that a crash interrupted may have left it there, its batch
     * seen in part: that one is left to the recovery, which completes it. Returns false when there is nothing to do
     * (any more), or it waits for the recovery.
     */
    public boolean placeUnderRoot(Origin origin, UUID pid) {
        var before = dao.find(pid).orElse(null);
        if (before == null) {
            return false;
        }
        UUID root = rootOf(before.home());
        if (root == null || root.equals(before.uid())) {
            return false;
        }
        UUID from = before.uid();
        return changes.underLock(origin, List.of(LockTable.profile(pid), LockTable.user(from), LockTable.user(root)),
                change -> {
                    var current = dao.find(pid).orElse(null);
                    if (current == null || !from.equals(current.uid()) || !root.equals(rootOf(current.home()))
                            || journal.pendingOn(List.of(current.home(), from, root), null)) {
                        return false;
                    }
                    // no limit: the profile is the root's by the rules already, and stays countable where it is
                    var users = dao.findUsers(List.of(from, root));
                    change.fenceAbove(Math.max(current.written(),
                            users.values().stream().mapToLong(UserRow::written).max().orElse(0)));
                    var lease = change.lease();
                    var next = current.under(root, current.version() + 1, lease.timestamp(), lease.fence(), VersionKind.MOVED);
                    change.commit(List.of(OutboxRecord.profile(pid, next.version(), lease.fence())),
                            List.of(new PutProfile(next), new RecordVersion(next, current), new UnlinkProfile(from, pid),
                                    new LinkProfile(root, pid)));
                    return true;
                });
    }

    private UUID rootOf(UUID uid) {
        return rootOf(uid, user -> dao.findUser(user).orElse(null));
    }

    /**
     * The root of a user's tree (itself when merged into nobody), where its chain of parents ends and its row's master
     * agrees; null when that is not sound: a row missing, a chain that goes round or is longer than a tree, a master
     * that is not the chain's end (check-tables reports the users and sets masters right; their profiles wait).
     */
    public UUID rootOf(UUID uid, Function<UUID, UserRow> rows) {
        var user = rows.apply(uid);
        if (user == null) {
            return null;
        }
        var seen = new HashSet<UUID>();
        var at = user;
        while (at.parent() != null) {
            if (!seen.add(at.uid()) || seen.size() > settings.maxMergedUsers) {
                return null;
            }
            at = rows.apply(at.parent());
            if (at == null) {
                return null;
            }
        }
        boolean sound = !at.merged() && (user.merged() ? at.uid().equals(user.masterUid()) : at.uid().equals(uid));
        return sound ? at.uid() : null;
    }

    /** Merges the sources into the target: every user of the sources' trees and every profile under them moves. */
    public UserResults.Merged merge(Origin origin, UUID target, List<UUID> sources) {
        planner.checkMergeRequest(target, sources);
        return runMerge(origin, new Operation(UUID.randomUUID(), Kind.MERGE, target, List.copyOf(sources), null), false);
    }

    /**
     * Undoes a merge for one source (or for every source of a merge, by its id): the source is cut from the user it
     * was merged into, with what it took in.
     */
    public UserResults.Unmerged unmerge(Origin origin, UUID target, UUID source, UUID mergeId) {
        return runUnmerge(origin, planner.unmergeOf(new StoredUserReads(dao, journal, null), target, source, mergeId), false);
    }

    /** Completes an operation a crash interrupted (see the class comment). */
    public void resume(Origin origin, Operation operation) {
        if (operation.kind() == Kind.MERGE) {
            runMerge(origin, operation, true);
        } else {
            runUnmerge(origin, operation, true);
        }
    }

    private UserResults.Merged runMerge(Origin origin, Operation merge, boolean resume) {
        return changes.underLock(origin, userLocks(merge), change -> {
            if (resume && !journal.isPending(merge.opId())) {
                return null; // finished meanwhile, by its request
            }
            var prepared = planner.prepareMerge(new StoredUserReads(dao, journal, change), merge, resume);
            return run(change, prepared, merge, resume);
        });
    }

    private UserResults.Unmerged runUnmerge(Origin origin, Operation unmerge, boolean resume) {
        return changes.underLock(origin, userLocks(unmerge), change -> {
            if (resume && !journal.isPending(unmerge.opId())) {
                return null; // finished meanwhile
            }
            var prepared = planner.prepareUnmerge(new StoredUserReads(dao, journal, change), unmerge, resume);
            return run(change, prepared, unmerge, resume);
        });
    }

    /**
     * Abandons an interrupted operation that can no longer be done as it was recorded (its users changed since, so
     * that it would break a limit). Its batch may still land: a coordinator that took it keeps it in its batchlog and
     * replays it, maybe much later, at the operation's own fence. So first every row that batch would have written is
     * written again as it stands now, at a fence above it, which a late batch loses to; only then is the operation
     * marked abandoned. That is only right while the batch shows on none of those rows: one seen in part lands whole,
     * so the operation stands and is completed ({@link UserTrees#batchShows}), not frozen half done. Returns false when
     * it is not pending (any more), or stands.
     */
    public boolean abandon(Origin origin, Operation operation) {
        return changes.underLock(origin, userLocks(operation), change -> {
            if (!journal.isPending(operation.opId())) {
                return false;
            }
            // the users its batch wrote: its own, the root of an unmerge's tree, and the trees of its sources
            var uids = new LinkedHashSet<>(UserTrees.withTarget(operation.target(), operation.sources()));
            var target = dao.findUser(operation.target()).orElse(null);
            if (target != null && target.merged()) {
                uids.add(target.masterUid());
            }
            operation.sources().forEach(source -> uids.addAll(journal.everMergedInto(source)));
            change.lockMore(uids.stream().map(LockTable::user).toList());
            var users = dao.findUsers(uids);
            var moves = journal.moves(operation.opId());
            change.lockMore(moves.stream().map(move -> LockTable.profile(move.pid())).toList());
            if (UserTrees.batchShows(new StoredUserReads(dao, journal, change), operation)) {
                LOG.info("the interrupted {} {} is not abandoned: its batch shows on its rows, so it is completed",
                        operation.kind(), operation.opId());
                return false;
            }
            var rows = dao.findAll(moves.stream().map(Move::pid).toList());
            change.fenceAbove(UserTrees.newestWrite(rows.values(), users.values()));
            long fence = change.lease().fence();
            var writes = new ArrayList<RowWrite>();
            users.values().forEach(user -> writes.add(new PutUser(user)));
            for (var move : moves) {
                var row = rows.get(move.pid());
                if (row != null) {
                    writes.add(new PutProfile(row));
                    // its version too, as it stands and without a TTL: the batch's write would give it one
                    writes.add(new RecordVersion(row, null));
                    writes.add(new LinkProfile(row.uid(), row.pid()));
                    if (row.version() < move.version()) {
                        // the version the batch would have made, should it land yet: it never was
                        writes.add(new ForgetVersion(row.pid(), move.version()));
                    }
                }
                if (row == null || !row.uid().equals(move.to())) {
                    writes.add(new UnlinkProfile(move.to(), move.pid()));
                }
            }
            change.commit(rows.values().stream().map(row -> OutboxRecord.profile(row.pid(), row.version(), fence)).toList(),
                    writes);
            return journal.finish(operation.opId(), false);
        });
    }

    /**
     * Writes what the planner prepared, at a fence above what it read; a journaled operation ({@code operation} not
     * null) with its journal, and marked applied once Cassandra confirmed it.
     */
    private <A> A run(ChangeRunner.Change change, PreparedOperation<A> prepared, Operation operation, boolean resume) {
        if (prepared.finished() != null) {
            if (operation != null) {
                finish(operation);
            }
            return prepared.finished();
        }
        change.fenceAbove(prepared.newestWrite());
        var lease = change.lease();
        var plan = prepared.plan(lease.timestamp(), lease.fence());
        var writes = new ArrayList<RowWrite>();
        // the versions they replace, as they stand under our locks: each goes into the history beside its successor
        var made = plan.profiles().stream().filter(row -> row.writtenBy() == null).map(ProfileRow::pid).toList();
        var replaced = made.isEmpty() ? Map.<UUID, ProfileRow>of() : dao.findAll(made);
        plan.profiles().forEach(row -> {
            writes.add(new PutProfile(row));
            if (row.writtenBy() == null) {
                writes.add(new RecordVersion(row, replaced.get(row.pid())));
            }
        });
        plan.unlinks().forEach(link -> writes.add(new UnlinkProfile(link.uid(), link.pid())));
        plan.links().forEach(link -> writes.add(new LinkProfile(link.uid(), link.pid())));
        plan.users().forEach(user -> writes.add(new PutUser(user)));
        var records = plan.profiles().stream().map(row -> OutboxRecord.profile(row.pid(), row.version(), lease.fence()))
                .toList();
        if (operation == null) {
            change.commit(records, writes);
            return plan.answer();
        }
        JournalEntry record = resume ? journal.resumedMoves(operation.opId(), plan.moves(), plan.notMoved())
                : operation.kind() == Kind.MERGE ? journal.recordMerge(operation, plan.moves(), change.writer())
                : journal.recordUnmerge(operation, plan.moves(), change.writer());
        commitJournaled(change, operation, records, writes, record, resume);
        finish(operation);
        return plan.answer();
    }

    private static List<String> userLocks(Operation operation) {
        var locks = new ArrayList<String>(List.of(LockTable.user(operation.target())));
        operation.sources().forEach(source -> locks.add(LockTable.user(source)));
        return locks;
    }

    /**
     * Records and writes a journaled operation, and makes its failure tell the truth. The journal is committed
     * with the change's record; once it is, the recovery completes the operation later, so a failure after that
     * is not "nothing was changed": unless the write surely did not happen and the operation can be abandoned
     * before the recovery takes it, the answer is that it is pending. (The recovery's own attempts just fail and
     * are tried again.)
     */
    private void commitJournaled(ChangeRunner.Change change, Operation operation, List<OutboxRecord> records,
            List<RowWrite> writes, JournalEntry record, boolean resume) {
        try {
            change.commit(records, writes, record);
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
}
