package io.profilestore.tablecheck;

import io.profilestore.change.ChangeRunner;
import io.profilestore.change.LockTable;
import io.profilestore.change.Origin;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite.PutUser;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserJournalHistory.Edge;
import io.profilestore.change.UserRow;
import io.profilestore.tablecheck.TableCheckReport.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * check-tables' pass over the users' table and the merge journal. A merged user's parent is the truth Cassandra
 * holds; its master is derived from it (the root of its chain of parents) and is set right where it is not. A chain
 * whose parent has no row or that goes round, a tree over the limit, and a parent the journal does not have (its
 * applied merges less their unmerges) are reported and left: repairing them from a history could undo or redo a
 * merge. Users an interrupted operation waits on are left for the recovery.
 */
final class UserTreeCheck {

    private static final Logger LOG = LoggerFactory.getLogger(UserTreeCheck.class);
    private static final int SLICES = 64;
    private static final int PAGE = 500;

    /** Where a chain of parents ends: its root, or why none (a parent without a row, or a cycle). */
    private record Chain(UUID root, String broken) {
    }

    private final ProfileRows dao;
    private final ChangeRunner changes;
    private final UserJournalHistory journal;
    private final int maxMergedUsers;

    UserTreeCheck(ProfileRows dao, ChangeRunner changes, UserJournalHistory journal, int maxMergedUsers) {
        this.dao = dao;
        this.changes = changes;
        this.journal = journal;
        this.maxMergedUsers = maxMergedUsers;
    }

    /**
     * Checks the users and the journal; returns the users whose place in a tree is not sound after it (a broken
     * chain, a parent the journal does not have, a master it could not set right): their profiles are left where they
     * are, since where they belong depends on which is right.
     */
    Set<UUID> run(Origin origin, TableCheckTally tally) {
        var treeSizes = new HashMap<UUID, Integer>();
        var reported = new HashSet<UUID>();
        for (int slice = 0; slice < SLICES; slice++) {
            var page = new ArrayList<UserRow>();
            for (var row : dao.scanUsers(slice, SLICES)) {
                page.add(row);
                if (page.size() == PAGE) {
                    checkUsers(origin, page, tally, treeSizes, reported);
                    page.clear();
                }
            }
            checkUsers(origin, page, tally, treeSizes, reported);
        }
        treeSizes.forEach((root, merged) -> {
            if (merged + 1 > maxMergedUsers) {
                tally.found(Kind.TREE_TOO_LARGE, "user " + root + " holds " + (merged + 1) + " users");
            }
        });
        journal.activeEdges(PAGE, edges -> checkEdges(origin, edges, tally, reported));
        return reported;
    }

    /** {@code reported}: the users found unsound so far (and those whose journal disagreement is reported). */
    private void checkUsers(Origin origin, List<UserRow> page, TableCheckTally tally, Map<UUID, Integer> treeSizes, Set<UUID> reported) {
        tally.users += page.size();
        var merged = page.stream().filter(UserRow::merged).toList();
        if (merged.isEmpty()) {
            return;
        }
        var pending = journal.pendingUsers(merged.stream().map(UserRow::uid).toList());
        var known = new HashMap<UUID, UserRow>();
        page.forEach(row -> known.put(row.uid(), row));
        var parents = journal.parentsInJournal(merged.stream().map(UserRow::uid).toList());
        for (var row : merged) {
            if (pending.contains(row.uid())) {
                tally.skipped();
                continue;
            }
            treeSizes.merge(row.masterUid(), 1, Integer::sum);
            var chain = chain(row, known);
            if (chain.broken() != null) {
                reported.add(row.uid());
                tally.found(Kind.CHAIN_BROKEN, "user " + row.uid() + ": " + chain.broken());
            } else if (!chain.root().equals(row.masterUid()) && !tally.found(Kind.MASTER_WRONG, "user " + row.uid()
                    + ": master " + row.masterUid() + ", root " + chain.root(), () -> setMaster(origin, row.uid()))) {
                reported.add(row.uid()); // not set right (a dry run, or busy): its profiles wait for the next run
            }
            if (!row.parent().equals(parents.get(row.uid()))) {
                reported.add(row.uid());
                tally.found(Kind.JOURNAL_DISAGREES, "user " + row.uid() + ": parent " + row.parent() + ", in the journal "
                        + parents.get(row.uid()));
            }
        }
    }

    /** The journal's side: each merge it holds as standing, and the source's row. */
    private void checkEdges(Origin origin, List<Edge> edges, TableCheckTally tally, Set<UUID> reported) {
        var sources = edges.stream().map(Edge::source).toList();
        var rows = dao.findUsers(sources);
        var pending = journal.pendingUsers(sources);
        for (var edge : edges) {
            var row = rows.get(edge.source());
            if (reported.contains(edge.source()) || pending.contains(edge.source())
                    || row != null && edge.target().equals(row.parent())) {
                continue;
            }
            tally.found(Kind.JOURNAL_DISAGREES, "user " + edge.source() + ": parent " + (row == null ? "(no row)" : row.parent())
                    + ", in the journal " + edge.target());
        }
    }

    /** Follows the parents from a merged user to the root, reading the rows not read yet; at most a tree's size. */
    private Chain chain(UserRow row, Map<UUID, UserRow> known) {
        var seen = new HashSet<UUID>(List.of(row.uid()));
        var at = row;
        for (int steps = 0; steps <= maxMergedUsers; steps++) {
            UUID parent = at.parent();
            if (parent == null) {
                return new Chain(at.uid(), null);
            }
            if (!seen.add(parent)) {
                return new Chain(null, "its chain of parents goes round at " + parent);
            }
            var next = known.computeIfAbsent(parent, uid -> dao.findUser(uid).orElse(null));
            if (next == null) {
                known.remove(parent);
                return new Chain(null, "parent " + parent + " has no row");
            }
            at = next;
        }
        return new Chain(null, "its chain of parents is longer than users.maxMergedUsers");
    }

    /** Sets a merged user's master to the root of its chain of parents, looked at again under its and the root's locks. */
    private boolean setMaster(Origin origin, UUID uid) {
        return changes.underLock(origin, List.of(LockTable.user(uid)), change -> {
            var row = dao.findUser(uid).orElse(null);
            if (row == null || !row.merged()) {
                return false;
            }
            var chain = chain(row, new HashMap<>());
            if (chain.broken() != null || chain.root().equals(row.masterUid())) {
                return false;
            }
            change.lockMore(List.of(LockTable.user(chain.root())));
            // looked at again with the root held: an operation on the tree holds it too, so the chain stands now
            var held = dao.findUser(uid).orElse(null);
            if (held == null || !held.equals(row) || !chain.equals(chain(held, new HashMap<>()))
                    || !journal.pendingUsers(List.of(uid, chain.root())).isEmpty()) {
                return false;
            }
            change.fenceAbove(row.written());
            change.commit(List.of(), List.of(new PutUser(row.next(chain.root(), row.parent(), change.lease().timestamp()))));
            LOG.info("check-tables: user {} has master {} (the root of its chain of parents) again", uid, chain.root());
            return true;
        });
    }
}
