package io.profilestore.core;

import io.profilestore.db.EntitiesLockedException;
import io.profilestore.db.EntityLocks;
import io.profilestore.db.ProfileDao;
import io.profilestore.db.ProfileDao.Link;
import io.profilestore.db.ProfileRow;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The profile row is the truth, and the tables derived from it must agree with it: a profile is listed by its
 * user ({@code uid_pid}) and by no other, its user has a row ({@code persons}), and a merged user holds no profile.
 * A late write of a holder that lost its lease can break this (USING TIMESTAMP makes it lose only on the cells a
 * newer write touched, not on rows only it wrote), so the check goes through both tables and repairs what
 * disagrees. Each repair is a change like any other: under the locks of what it repairs, looked at again under
 * them, written at their fence, which is above every write it replaces.
 */
public class TableCheck {

    private static final Logger LOG = LoggerFactory.getLogger(TableCheck.class);
    /** The name it runs under, one instance at a time ({@link io.profilestore.db.ExclusiveRun}). */
    public static final String JOB = "check-tables";
    private static final int SLICES = 64;
    private static final int PAGE = 500;

    /** One kind of disagreement: how many were found, how many repaired. */
    public record Count(long found, long repaired) {
    }

    /** What a run found and did; {@code leftAlone} were changed meanwhile, busy, or could not be repaired. */
    public record Report(long profiles, long links, Count missingLinks, Count strayLinks, Count missingUsers,
            Count ofMergedUsers, long leftAlone) {

        public long violations() {
            return missingLinks.found() + strayLinks.found() + missingUsers.found() + ofMergedUsers.found();
        }
    }

    private final ProfileDao dao;
    private final ChangeRunner changes;
    private final UserService users;

    public TableCheck(ProfileDao dao, ChangeRunner changes, UserService users) {
        this.dao = dao;
        this.changes = changes;
        this.users = users;
    }

    /** Checks both tables; repairs what disagrees unless {@code repair} is false; says what it found. */
    public Report run(boolean repair, PrintWriter out) {
        var run = new Run(repair);
        for (int slice = 0; slice < SLICES; slice++) {
            var page = new ArrayList<ProfileRow>();
            for (var row : dao.scan(slice, SLICES)) {
                page.add(row);
                if (page.size() == PAGE) {
                    run.checkProfiles(page);
                    page.clear();
                }
            }
            run.checkProfiles(page);
        }
        for (int slice = 0; slice < SLICES; slice++) {
            var page = new ArrayList<Link>();
            for (var link : dao.scanLinks(slice, SLICES)) {
                page.add(link);
                if (page.size() == PAGE) {
                    run.checkLinks(page);
                    page.clear();
                }
            }
            run.checkLinks(page);
        }
        var report = run.report();
        String done = repair ? "" : " (dry run: nothing repaired)";
        out.printf("check-tables: %,d profiles and %,d links checked%s%n", report.profiles(), report.links(), done);
        out.printf("  links missing (a profile's user does not list it): %d, %d put back%n",
                report.missingLinks().found(), report.missingLinks().repaired());
        out.printf("  stray links (a user lists a profile that is not its): %d, %d removed%n",
                report.strayLinks().found(), report.strayLinks().repaired());
        out.printf("  users missing (a profile names a user without a row): %d, %d made%n",
                report.missingUsers().found(), report.missingUsers().repaired());
        out.printf("  profiles of merged users: %d, %d moved to their master%n",
                report.ofMergedUsers().found(), report.ofMergedUsers().repaired());
        out.printf("  left as they are (changed meanwhile, busy, or not repairable): %d%n", report.leftAlone());
        out.flush();
        return report;
    }

    /** The counts of one run. */
    private final class Run {
        final boolean repair;
        final AtomicLong profiles = new AtomicLong();
        final AtomicLong links = new AtomicLong();
        final long[] missingLinks = new long[2];
        final long[] strayLinks = new long[2];
        final long[] missingUsers = new long[2];
        final long[] ofMergedUsers = new long[2];
        long leftAlone;

        Run(boolean repair) {
            this.repair = repair;
        }

        Report report() {
            return new Report(profiles.get(), links.get(), count(missingLinks), count(strayLinks), count(missingUsers),
                    count(ofMergedUsers), leftAlone);
        }

        private Count count(long[] counts) {
            return new Count(counts[0], counts[1]);
        }

        void checkProfiles(List<ProfileRow> rows) {
            if (rows.isEmpty()) {
                return;
            }
            profiles.addAndGet(rows.size());
            var listed = dao.existing(rows.stream().map(row -> new Link(row.uid(), row.pid())).toList());
            var owners = dao.findUsers(rows.stream().map(ProfileRow::uid).collect(java.util.stream.Collectors.toSet()));
            for (var row : rows) {
                if (!listed.contains(new Link(row.uid(), row.pid()))) {
                    tally(missingLinks, repair && repaired(() -> putBackLink(row.pid(), row.uid())));
                }
                var owner = owners.get(row.uid());
                if (owner == null) {
                    tally(missingUsers, repair && repaired(() -> makeUser(row.uid(), row.pid())));
                } else if (owner.masterUid() != null) {
                    tally(ofMergedUsers, repair && repaired(() -> moveToMaster(row)));
                }
            }
        }

        void checkLinks(List<Link> page) {
            if (page.isEmpty()) {
                return;
            }
            links.addAndGet(page.size());
            var rows = dao.findAll(page.stream().map(Link::pid).collect(java.util.stream.Collectors.toSet()));
            for (var link : page) {
                var row = rows.get(link.pid());
                if (row == null || !row.uid().equals(link.uid())) {
                    tally(strayLinks, repair && repaired(() -> removeStrayLink(link)));
                }
            }
        }

        private void tally(long[] counts, boolean repaired) {
            counts[0]++;
            if (repaired) {
                counts[1]++;
            }
        }

        /** Runs one repair; whatever keeps it from being done leaves the entity for the next run. */
        private boolean repaired(java.util.function.BooleanSupplier repairOne) {
            try {
                if (repairOne.getAsBoolean()) {
                    return true;
                }
            } catch (EntitiesLockedException e) {
                // in use right now: the next run looks again
            } catch (RuntimeException e) {
                LOG.warn("a table repair failed ({}); the next run tries again", e.getClass().getSimpleName());
            }
            leftAlone++;
            return false;
        }
    }

    /** The user the profile names lists it again (unless the profile changed meanwhile). */
    private boolean putBackLink(UUID pid, UUID uid) {
        return changes.underLock(List.of(EntityLocks.profile(pid), EntityLocks.user(uid)), change -> {
            var row = dao.find(pid).orElse(null);
            if (row == null || !row.uid().equals(uid) || !dao.existing(List.of(new Link(uid, pid))).isEmpty()) {
                return false;
            }
            change.fenceAbove(row.written());
            change.commit(List.of(), List.of(dao.linkProfile(uid, pid)));
            LOG.info("check-tables: user {} lists profile {} again", uid, pid);
            return true;
        });
    }

    /** A user stops listing a profile that is not its (unless the profile moved to it meanwhile). */
    private boolean removeStrayLink(Link link) {
        return changes.underLock(List.of(EntityLocks.profile(link.pid()), EntityLocks.user(link.uid())), change -> {
            var row = dao.find(link.pid()).orElse(null);
            if (row != null && row.uid().equals(link.uid()) || dao.existing(List.of(link)).isEmpty()) {
                return false;
            }
            change.fenceAbove(row == null ? 0 : row.written());
            change.commit(List.of(), List.of(dao.unlinkProfile(link.uid(), link.pid())));
            LOG.info("check-tables: user {} no longer lists profile {}", link.uid(), link.pid());
            return true;
        });
    }

    /** The user a profile names gets a row (unmerged, version 1). */
    private boolean makeUser(UUID uid, UUID pid) {
        return changes.underLock(List.of(EntityLocks.user(uid), EntityLocks.profile(pid)), change -> {
            var row = dao.find(pid).orElse(null);
            if (row == null || !row.uid().equals(uid) || dao.findUser(uid).isPresent()) {
                return false;
            }
            change.fenceAbove(row.written());
            change.commit(List.of(), List.of(dao.putUser(uid, change.lease().timestamp())));
            LOG.info("check-tables: user {} of profile {} made", uid, pid);
            return true;
        });
    }

    /** A profile left under a merged user moves to its master, as the merge would have moved it. */
    private boolean moveToMaster(ProfileRow row) {
        boolean moved = users.placeUnderRoot(row.pid());
        if (moved) {
            LOG.info("check-tables: profile {} of merged user {} moved to its master", row.pid(), row.uid());
        }
        return moved;
    }
}
