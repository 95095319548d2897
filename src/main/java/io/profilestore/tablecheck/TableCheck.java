package io.profilestore.tablecheck;

import io.profilestore.change.ChangeRunner;
import io.profilestore.change.LockTable;
import io.profilestore.change.OneAtATime;
import io.profilestore.change.Origin;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.change.RowWrite;
import io.profilestore.change.RowWrite.LinkProfile;
import io.profilestore.change.RowWrite.PutNewUser;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.RecordVersion;
import io.profilestore.change.RowWrite.UnlinkProfile;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserRow;
import io.profilestore.tablecheck.TableCheckReport.Kind;
import io.profilestore.users.UserService;
import io.profilestore.users.UserSettings;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profile row is the truth, and the tables derived from it must agree with it: a profile is listed by its
 * user ({@code uid_pid}) and by no other, its user has a row ({@code persons}), and it is under the root of its own
 * user's tree of merges. A late write of a holder that lost its lease can break this (USING TIMESTAMP makes it lose
 * only on the cells a newer write touched, not on rows only it wrote), so the check goes through the tables and
 * repairs what disagrees; {@link UserTreeCheck} goes through the users and the merge journal first. Each repair is a
 * change like any other: under the locks of what it repairs, looked at again under them, written at their fence,
 * which is above every write it replaces.
 */
public class TableCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TableCheck.class);
    /** The name it runs under, one instance at a time ({@link io.profilestore.change.OneAtATime}). */
    public static final String JOB = "check-tables";
    private static final int SLICES = 64;
    private static final int PAGE = 500;

    private final ProfileRows dao;
    private final ChangeRunner changes;
    private final UserService users;
    private final UserTreeCheck trees;
    private final UserJournalHistory journal;

    public TableCheck(ProfileRows dao, ChangeRunner changes, UserService users, UserJournalHistory journal,
            UserSettings settings) {
        this.dao = dao;
        this.changes = changes;
        this.users = users;
        this.trees = new UserTreeCheck(dao, changes, journal, settings.maxMergedUsers);
        this.journal = journal;
    }

    /** Checks the tables; repairs what disagrees unless {@code repair} is false; says what it found. */
    public TableCheckReport run(boolean repair, PrintWriter out) {
        return run(repair, false, out);
    }

    /**
     * The same, and with {@code list}, each disagreement by its ids. Its repairs are the system's own changes: their
     * rows and audit records carry an id of the run's ({@code written_by}).
     */
    public TableCheckReport run(boolean repair, boolean list, PrintWriter out) {
        return check(Origin.system(JOB, UUID.randomUUID()), repair, list, out);
    }

    private TableCheckReport check(Origin origin, boolean repair, boolean list, PrintWriter out) {
        var tally = new TableCheckTally(repair);
        var unsound = trees.run(origin, tally);
        for (int slice = 0; slice < SLICES; slice++) {
            var page = new ArrayList<ProfileRow>();
            for (var row : dao.scan(slice, SLICES)) {
                page.add(row);
                if (page.size() == PAGE) {
                    checkProfiles(origin, page, tally, unsound);
                    page.clear();
                }
            }
            checkProfiles(origin, page, tally, unsound);
        }
        for (int slice = 0; slice < SLICES; slice++) {
            var page = new ArrayList<Link>();
            for (var link : dao.scanLinks(slice, SLICES)) {
                page.add(link);
                if (page.size() == PAGE) {
                    checkLinks(origin, page, tally);
                    page.clear();
                }
            }
            checkLinks(origin, page, tally);
        }
        var report = tally.report();
        report.print(out, repair, list);
        return report;
    }

    /** {@code unsound}: users whose place in a tree the users' pass could not vouch for; their profiles stay. */
    private void checkProfiles(Origin origin, List<ProfileRow> rows, TableCheckTally tally, Set<UUID> unsound) {
        if (rows.isEmpty()) {
            return;
        }
        tally.profiles += rows.size();
        var listed = dao.existing(rows.stream().map(row -> new Link(row.uid(), row.pid())).toList());
        var owners = new HashMap<>(dao.findUsers(rows.stream()
                .flatMap(row -> Stream.of(row.uid(), row.home())).collect(Collectors.toSet())));
        owners.putAll(dao.findUsers(owners.values().stream().filter(UserRow::merged).map(UserRow::masterUid)
                .filter(master -> !owners.containsKey(master)).collect(Collectors.toSet())));
        var newest = dao.newestVersions(rows.stream().map(ProfileRow::pid).toList());
        var pending = journal.pendingUsers(rows.stream().flatMap(row -> Stream.of(row.uid(), row.home())).distinct().toList());
        for (var row : rows) {
            if (pending.contains(row.uid()) || pending.contains(row.home())) {
                // maybe part of an interrupted operation's batch, its version landed before its row: the recovery's
                tally.skipped();
            } else {
                checkHistory(row, newest.get(row.pid()), tally);
            }
            if (!listed.contains(new Link(row.uid(), row.pid()))) {
                tally.found(Kind.MISSING_LINK, "profile " + row.pid() + " under user " + row.uid(),
                        () -> putBackLink(origin, row.pid(), row.uid()));
            }
            var owner = owners.get(row.uid());
            if (owner == null) {
                tally.found(Kind.MISSING_USER, "user " + row.uid() + " of profile " + row.pid(),
                        () -> makeUser(origin, row.uid(), row.pid()));
                continue;
            }
            UUID root = users.rootOf(row.home(), uid -> unsound.contains(uid) ? null
                    : owners.computeIfAbsent(uid, u -> dao.findUser(u).orElse(null)));
            if (root != null && !root.equals(row.uid())) {
                if (!journal.pendingUsers(List.of(row.home(), row.uid(), root)).isEmpty()) {
                    // maybe part of an interrupted operation's batch, landed before the rest: the recovery's
                    tally.skipped();
                } else {
                    tally.found(Kind.AWAY_FROM_ROOT, "profile " + row.pid() + " under user " + row.uid() + ", its root "
                            + root, () -> placeUnderRoot(origin, row));
                }
            }
        }
    }

    /**
     * The profile's row is the newest version of its history: the same version with the same document and user. A row
     * from before versions were kept (or one whose version a lost write never recorded) has its version recorded as it
     * stands; a history ahead of its row (a version the row never reached) is only reported.
     */
    private void checkHistory(ProfileRow row, ProfileRow newest, TableCheckTally tally) {
        if (newest != null && newest.version() > row.version()) {
            tally.found(Kind.HISTORY_AHEAD, "profile " + row.pid() + " at version " + row.version() + ", its history at "
                    + newest.version());
        } else if (!sameVersion(row, newest)) {
            tally.found(Kind.VERSION_UNRECORDED, "profile " + row.pid() + " version " + row.version(),
                    () -> recordVersion(row.pid()));
        }
    }

    private static boolean sameVersion(ProfileRow row, ProfileRow version) {
        return version != null && version.version() == row.version() && row.uid().equals(version.uid())
                && Objects.equals(row.data(), version.data());
    }

    /**
     * The profile's row goes into its history as it stands, at the row's own write time and without its lock: a change
     * of the profile meanwhile writes its versions (and this one again, to expire) at a newer fence, an erase or a purge
     * too, so this write can only lose to them. No change is made, so nothing is locked, recorded or audited: a first
     * run after versions came records every profile's row, one write each.
     */
    private boolean recordVersion(UUID pid) {
        var row = dao.find(pid).orElse(null);
        var newest = dao.newestVersion(pid).orElse(null);
        if (row == null || sameVersion(row, newest) || newest != null && newest.version() > row.version()) {
            return false;
        }
        dao.apply(List.of(new RecordVersion(row, null)), row.written(), row.writtenBy());
        return true;
    }

    private void checkLinks(Origin origin, List<Link> page, TableCheckTally tally) {
        if (page.isEmpty()) {
            return;
        }
        tally.links += page.size();
        var rows = dao.findAll(page.stream().map(Link::pid).collect(Collectors.toSet()));
        for (var link : page) {
            var row = rows.get(link.pid());
            if (row == null || !row.uid().equals(link.uid())) {
                tally.found(Kind.STRAY_LINK, "user " + link.uid() + " lists profile " + link.pid(),
                        () -> removeStrayLink(origin, link));
            }
        }
    }

    /** The user the profile names lists it again (unless the profile changed meanwhile). */
    private boolean putBackLink(Origin origin, UUID pid, UUID uid) {
        return changes.underLock(origin, List.of(LockTable.profile(pid), LockTable.user(uid)), change -> {
            var row = dao.find(pid).orElse(null);
            if (row == null || !row.uid().equals(uid) || !dao.existing(List.of(new Link(uid, pid))).isEmpty()) {
                return false;
            }
            change.fenceAbove(row.written());
            change.commit(List.of(), List.of(new LinkProfile(uid, pid)));
            LOG.info("check-tables: user {} lists profile {} again", uid, pid);
            return true;
        });
    }

    /**
     * A user stops listing a profile that is not its (unless the profile moved to it meanwhile). The profile's row is
     * written again as it stands at the same fence: the link may be a late write's that showed before its row (a logged
     * batch lands partition by partition), and that row, landing after, must lose rather than name a user that no
     * longer lists the profile.
     */
    private boolean removeStrayLink(Origin origin, Link link) {
        return changes.underLock(origin, List.of(LockTable.profile(link.pid()), LockTable.user(link.uid())), change -> {
            var row = dao.find(link.pid()).orElse(null);
            if (row != null && row.uid().equals(link.uid()) || dao.existing(List.of(link)).isEmpty()) {
                return false;
            }
            // the link may be a pending merge's or unmerge's, seen before its row: left to the recovery
            var users = row == null ? List.of(link.uid()) : List.of(link.uid(), row.uid(), row.home());
            if (!journal.pendingUsers(users).isEmpty()) {
                return false;
            }
            change.fenceAbove(row == null ? 0 : row.written());
            var writes = new ArrayList<RowWrite>();
            var records = new ArrayList<OutboxRecord>();
            if (row != null) {
                writes.add(new PutProfile(row));
                // the same version at a newer write time: the index takes it again (its external version is the time)
                records.add(OutboxRecord.profile(row.pid(), row.version(), change.lease().fence()));
            }
            writes.add(new UnlinkProfile(link.uid(), link.pid()));
            change.commit(records, writes);
            LOG.info("check-tables: user {} no longer lists profile {}", link.uid(), link.pid());
            return true;
        });
    }

    /** The user a profile names gets a row (unmerged, version 1). */
    private boolean makeUser(Origin origin, UUID uid, UUID pid) {
        return changes.underLock(origin, List.of(LockTable.user(uid), LockTable.profile(pid)), change -> {
            var row = dao.find(pid).orElse(null);
            if (row == null || !row.uid().equals(uid) || dao.findUser(uid).isPresent()) {
                return false;
            }
            change.fenceAbove(row.written());
            change.commit(List.of(), List.of(new PutNewUser(uid, change.lease().timestamp())));
            LOG.info("check-tables: user {} of profile {} made", uid, pid);
            return true;
        });
    }

    /** A profile away from its root moves there, as the merges and unmerges would have put it. */
    private boolean placeUnderRoot(Origin origin, ProfileRow row) {
        boolean moved = users.placeUnderRoot(origin, row.pid());
        if (moved) {
            LOG.info("check-tables: profile {} of user {} moved to the root of its own user's tree", row.pid(), row.uid());
        }
        return moved;
    }
}
