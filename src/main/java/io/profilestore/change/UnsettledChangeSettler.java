package io.profilestore.change;

import io.profilestore.change.RowWrite.PutNewUser;
import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.change.RowWrite.PutUser;
import io.profilestore.change.UnsettledChanges.Completion;
import io.profilestore.change.UnsettledChanges.Unsettled;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes a change that may still land before a change of one of its profiles goes on (docs/design/write-path.md,
 * "An unconfirmed change is completed, never undone"). A Cassandra write carries its lease's fence as timestamp, so a
 * late one loses on every row a newer write touched, but only once that newer write landed: fenced off, a late change
 * could be seen by a read and then undone by a change decided on the version before it; and a late batch would lose
 * on some rows and stand on the others. So the next holder of any of its profiles, under the locks of all of them,
 * writes the change's rows again as it recorded them, above every fence: it stands whole, whatever lands when.
 *
 * <p>A batch update recorded by a version before completions (no rows kept) is settled as then:
 * <ul>
 *   <li>it landed nowhere yet: every row is written again as it stands, above the batch's fence (the fence is noted
 *   first, as revoked), so that the batch can no longer land anywhere;</li>
 *   <li>it landed everywhere, or the rows written again stand everywhere: nothing is left to do;</li>
 *   <li>it landed in part (or a row still shows it while the rows written again are on their way): Cassandra's
 *   batchlog brings the rest within seconds, so the change is refused as locked until then. Past
 *   {@link #LANDING_BOUND} from the first such sighting the rest never comes: the rows without it are written again as
 *   they stand, so it stays half landed, which is logged as an error.</li>
 * </ul>
 */
final class UnsettledChangeSettler {

    private static final Logger LOG = LoggerFactory.getLogger(UnsettledChangeSettler.class);

    /**
     * How long the rest of a batch landed in part is waited for: Cassandra replays a batchlog entry after twice its
     * write timeout, looking every 10 s, so minutes cover a node down and back.
     */
    static final Duration LANDING_BOUND = Duration.ofMinutes(5);

    /** More earlier holders than this, one found through another, is a loop. */
    private static final int MOST_HOLDERS = 100;

    private final ProfileRows tables;
    private final UnsettledChanges unsettled;

    UnsettledChangeSettler(ProfileRows tables, UnsettledChanges unsettled) {
        this.tables = tables;
        this.unsettled = unsettled;
    }

    /** Settles every change the lease found unsettled on its profiles (and those found on the way). */
    void settle(ChangeRunner.Change change) {
        var holders = new ArrayDeque<>(change.lease().unsettledBy());
        var looked = new HashSet<UUID>();
        while (!holders.isEmpty()) {
            UUID holder = holders.poll();
            if (!looked.add(holder)) {
                continue;
            }
            if (looked.size() > MOST_HOLDERS) {
                throw new IllegalStateException("more than " + MOST_HOLDERS + " unsettled batches, each on the next");
            }
            var batch = unsettled.of(holder);
            if (batch.isEmpty()) {
                continue; // confirmed meanwhile
            }
            var entities = new ArrayList<>(batch.get().pids().stream().map(LockTable::profile).toList());
            if (batch.get().completion() != null) {
                // its users' rows and lists too: a change of a user alone (a merge) locks none of its profiles
                batch.get().completion().users().forEach(uid -> entities.add(LockTable.user(uid)));
            }
            change.lockMoreAsIs(entities);
            holders.addAll(change.lease().unsettledBy());
            settle(change, batch.get());
        }
    }

    private void settle(ChangeRunner.Change change, Unsettled batch) {
        if (batch.completion() != null) {
            complete(change, batch);
            return;
        }
        var rows = tables.findAll(batch.pids()).values();
        // a row at the batch's fence holds the batch; one below it does not, and the batch may still land there
        var holding = rows.stream().filter(row -> row.written() == batch.fence()).toList();
        var without = rows.stream().filter(row -> row.written() < batch.fence()).toList();
        if (batch.revokedFence() != null) {
            // written again already: done where that write (or a newer one) stands
            long revoked = batch.revokedFence();
            holding = holding.stream().filter(row -> row.written() < revoked).toList();
            without = rows.stream().filter(row -> row.written() < revoked && row.written() != batch.fence()).toList();
            if (holding.isEmpty()) {
                writeAgain(change, batch, rows, without);
                return;
            }
            // the batch landed on a row after the write again was sent, which is on its way too: wait for it
        } else if (holding.isEmpty() || without.isEmpty()) {
            writeAgain(change, batch, rows, without); // nowhere yet: never from now on; or whole
            return;
        }
        if (batch.partFor() == null || batch.partFor().compareTo(LANDING_BOUND) < 0) {
            unsettled.foundInPart(batch.holder());
            throw new EntitiesLockedException((without.isEmpty() ? holding : without).stream()
                    .map(row -> LockTable.profile(row.pid())).toList());
        }
        LOG.error("a batch update stands on {} of its {} profiles {} s after it was first found so, and the rest never"
                + " landed: it is left so", holding.size(), batch.pids().size(), batch.partFor().toSeconds());
        writeAgain(change, batch, rows, without);
    }

    /**
     * Writes the change's rows again as it recorded them, above its fence and every row's, as their maker: whatever
     * lands when, the change stands whole, and what is read from now on is decided on it. A user's row is written only
     * where nothing newer stands (it lands nowhere else): a change of the user alone (a merge) may have written it
     * since, and locks none of the change's profiles.
     */
    private void complete(ChangeRunner.Change change, Unsettled batch) {
        var completion = batch.completion();
        long newest = tables.findAll(batch.pids()).values().stream().mapToLong(ProfileRow::written).max().orElse(0);
        var writes = completion.writes().stream().filter(write -> stillToWrite(write, batch.fence())).toList();
        change.fenceAbove(Math.max(batch.fence(), newest));
        change.complete(new Completion(writes, completion.records(), completion.writer()));
        unsettled.settled(batch.holder());
        LOG.info("a change Cassandra had not confirmed is completed: {} rows written again", writes.size());
    }

    private boolean stillToWrite(RowWrite write, long fence) {
        UUID uid = write instanceof PutUser put ? put.user().uid() : write instanceof PutNewUser made ? made.uid() : null;
        return uid == null || tables.findUser(uid).map(user -> user.written() < fence).orElse(true);
    }

    /** Writes the rows again as they stand, above the batch's fence and every row's; then the batch is settled. */
    private void writeAgain(ChangeRunner.Change change, Unsettled batch, Collection<ProfileRow> rows, List<ProfileRow> again) {
        if (!again.isEmpty()) {
            long above = Math.max(batch.fence(), batch.revokedFence() == null ? 0 : batch.revokedFence());
            change.fenceAbove(Math.max(above, rows.stream().mapToLong(ProfileRow::written).max().orElse(0)));
            change.writeAgain(again.stream().<RowWrite>map(PutProfile::new).toList(), batch.holder());
        }
        unsettled.settled(batch.holder());
    }
}
