package io.profilestore.change;

import io.dropwizard.lifecycle.Managed;
import io.profilestore.support.DaemonScheduler;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes the changes left unsettled ({@code unsettled_change}) whose profiles nobody changes again. A writer that
 * died, froze past its lease or got no confirmation leaves its row for the next holder of one of its profiles, which
 * completes the change before it reads ({@link UnsettledChangeSettler}); with no next holder the row would stay for ever,
 * and every lock taken looks in that table. So a row older than {@link #AGE} is settled as that holder would settle
 * it: the sweep takes the locks of all its profiles, which completes it, and frees them (a batch of an older version,
 * landed in part, stays, and the next rounds wait for the rest as any holder would). One instance sweeps at a time.
 */
public class UnsettledSweep implements Managed {

    /**
     * Rows younger than this are left to their writers and the next holders: a change holds its locks for a lease, and
     * a batch Cassandra took has landed whole by then, from its batchlog if need be.
     */
    static final Duration AGE = UnsettledChangeSettler.LANDING_BOUND;
    private static final Duration EVERY = Duration.ofSeconds(5);
    private static final int PER_ROUND = 100;
    /** The name it runs under, one instance at a time ({@link ExclusiveRun}). */
    public static final String JOB = "unsettled-sweep";

    private static final Logger LOG = LoggerFactory.getLogger(UnsettledSweep.class);

    private final ChangeRunner changes;
    private final UnsettledChanges unsettled;
    private final OneAtATime oneAtATime;
    private ScheduledExecutorService scheduler;

    public UnsettledSweep(ChangeRunner changes, UnsettledChanges unsettled, OneAtATime oneAtATime) {
        this.changes = changes;
        this.unsettled = unsettled;
        this.oneAtATime = oneAtATime;
    }

    @Override
    public void start() {
        scheduler = DaemonScheduler.named("unsettled-sweep");
        scheduler.scheduleWithFixedDelay(this::round, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() throws InterruptedException {
        scheduler.shutdownNow();
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
    }

    private void round() {
        try {
            oneAtATime.ifFree(JOB, this::sweep);
        } catch (RuntimeException e) {
            LOG.warn("the sweep of unsettled batch updates failed this round: {}", e.toString());
        }
    }

    /** Settles what was left long enough ago, as the next holder of its profiles would. */
    void sweep() {
        int settled = 0;
        for (var pids : unsettled.leftBehind(AGE, PER_ROUND)) {
            try {
                // the system's own work: rows written again as they stood keep their writers, and say so
                changes.underLock(Origin.system(JOB, UUID.randomUUID()), pids.stream().map(LockTable::profile).toList(),
                        change -> null);
                settled++;
            } catch (EntitiesLockedException e) {
                // a holder works on those profiles now (and settles it), or it landed in part: the next round looks
            } catch (RuntimeException e) {
                // one that cannot be settled now does not hold up the others behind it
                LOG.warn("a batch update left unsettled could not be settled this round: {}", e.toString());
            }
        }
        if (settled > 0) {
            LOG.info("settled {} batch updates left unsettled for over {}", settled, AGE);
        }
    }
}
