package io.profilestore.core;

import io.profilestore.db.EntitiesLockedException;
import io.profilestore.db.EntityLocks;
import io.profilestore.db.ProfileDao;
import io.profilestore.db.ProfileRow;
import io.profilestore.db.UnsettledChanges;
import io.profilestore.db.UnsettledChanges.Unsettled;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a batch update that may still land stand whole or nowhere, before a change of one of its profiles goes on.
 * A Cassandra write carries its lease's fence as timestamp, so a late one loses on every row a newer write touched;
 * a logged batch lands whole in the end, but a late batch would lose on some rows and stand on the others. So the
 * next holder of any of its profiles settles it first, under the locks of all of them:
 * <ul>
 *   <li>it landed nowhere yet: every row is written again as it stands, above the batch's fence, so that the batch
 *   can no longer land anywhere;</li>
 *   <li>it landed everywhere (or lost where something newer stands): nothing is left to do;</li>
 *   <li>it landed in part: the coordinator's batchlog brings the rest within seconds, so the change is refused as
 *   locked until then; past {@link #LANDING_BOUND} the rest never comes, and what stands is kept (logged as an
 *   error).</li>
 * </ul>
 */
final class UnsettledBatches {

    private static final Logger LOG = LoggerFactory.getLogger(UnsettledBatches.class);

    /**
     * How long the rest of a batch landed in part is waited for: Cassandra replays a batchlog entry after twice its
     * write timeout, looking every 10 s, so minutes cover a node down and back.
     */
    static final Duration LANDING_BOUND = Duration.ofMinutes(5);

    /** More earlier holders than this, one found through another, is a loop. */
    private static final int MOST_HOLDERS = 100;

    private final ProfileDao dao;
    private final UnsettledChanges unsettled;

    UnsettledBatches(ProfileDao dao, UnsettledChanges unsettled) {
        this.dao = dao;
        this.unsettled = unsettled;
    }

    /** Settles every batch the change's lease found unsettled on its profiles (and those found on the way). */
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
            change.lockMoreAsIs(batch.get().pids().stream().map(EntityLocks::profile).toList());
            holders.addAll(change.lease().unsettledBy());
            settle(change, batch.get());
        }
    }

    private void settle(ChangeRunner.Change change, Unsettled batch) {
        var rows = dao.findAll(batch.pids()).values();
        var standing = rows.stream().filter(row -> row.written() == batch.fence()).toList();
        var waiting = rows.stream().filter(row -> row.written() < batch.fence()).toList();
        if (!standing.isEmpty() && !waiting.isEmpty()) {
            if (batch.age().compareTo(LANDING_BOUND) < 0) {
                throw new EntitiesLockedException(waiting.stream().map(row -> EntityLocks.profile(row.pid())).toList());
            }
            LOG.error("a batch update recorded {} s ago stands on {} of its {} profiles and the rest never landed; it"
                    + " is left as it stands", batch.age().toSeconds(), standing.size(), batch.pids().size());
        }
        if (standing.isEmpty() || !waiting.isEmpty()) {
            // nothing of it may land from now on: the rows as they stand win over it
            change.fenceAbove(rows.stream().mapToLong(ProfileRow::written).max().orElse(0));
            change.writeAgain(waiting.stream().map(dao::putProfile).toList());
        }
        unsettled.settled(batch.holder());
    }
}
