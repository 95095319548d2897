package io.profilestore.users;

import io.profilestore.profiles.UserFullException;
import io.profilestore.profiles.UserMergedException;
import io.profilestore.profiles.UserNotFoundException;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.Origin;
import io.profilestore.change.UserJournal;
import io.profilestore.support.DaemonScheduler;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes merges and unmerges a crash interrupted: an operation still pending after the delay is resumed under
 * fresh locks (see {@link UserService}); one that can no longer be done as recorded (its users changed since, or
 * it would now break a limit) is abandoned: what its batch would have written is written again as it stands, at a
 * fence above it, so that the batch loses should it land late ({@link UserService#abandon}). One refused because
 * another interrupted operation on its users is pending waits for that one. Every API instance runs it; the locks
 * keep two from resuming the same operation at once.
 */
public class UserOperationRecovery implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(UserOperationRecovery.class);

    /** Waiting this long for other operations is logged: each should be completed in a round or two. */
    private static final Duration LONG_WAIT = Duration.ofMinutes(5);

    private final UserJournal journal;
    private final UserService users;
    private final Duration delay;
    private final Duration interval;
    private ScheduledExecutorService scheduler;
    /** The operations this instance found waiting for another on their users, since when ({@link System#nanoTime}). */
    private final Map<UUID, Long> waitingSince = new HashMap<>();
    private final Set<UUID> warned = new HashSet<>();

    public UserOperationRecovery(UserJournal journal, UserService users, Duration delay, Duration interval) {
        this.journal = journal;
        this.users = users;
        this.delay = delay;
        this.interval = interval;
    }

    @Override
    public void start() {
        scheduler = DaemonScheduler.named("user-operation-recovery");
        scheduler.scheduleWithFixedDelay(this::recover, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() throws InterruptedException {
        scheduler.shutdownNow();
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** One round: every operation pending for longer than the delay, each on its own (one that fails stops no other). */
    public synchronized void recover() {
        List<UserJournal.Operation> pending;
        try {
            pending = journal.pending(delay);
        } catch (RuntimeException e) {
            LOG.warn("recovery of user operations failed this round: {}", e.toString());
            return;
        }
        var ids = pending.stream().map(UserJournal.Operation::opId).toList();
        waitingSince.keySet().retainAll(ids);
        warned.retainAll(ids);
        for (var operation : pending) {
            try {
                // the recovery completes the operation as the request that recorded it: its rows say so
                users.resume(Origin.system("recovery",
                        operation.requestId() != null ? operation.requestId() : operation.opId()), operation);
                LOG.info("completed the interrupted {} {}", operation.kind(), operation.opId());
            } catch (EntitiesLockedException e) {
                // someone works on these users now: the next round tries again
            } catch (AwaitingRecoveryException e) {
                // another interrupted operation on its users is to be completed first: not a reason to abandon it
                waiting(operation);
            } catch (UserOperationException | UserMergedException | UserNotFoundException | UserFullException e) {
                abandon(operation, e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("the interrupted {} {} could not be completed this round: {}", operation.kind(),
                        operation.opId(), e.toString());
            }
        }
    }

    /**
     * Notes an operation refused while another interrupted one on its users is pending: that one is completed first
     * (it comes later in this round, or is under way elsewhere), then this one. Operations refused so by each other
     * would wait for ever, which is logged.
     */
    private void waiting(UserJournal.Operation operation) {
        long now = System.nanoTime();
        Long since = waitingSince.putIfAbsent(operation.opId(), now);
        if (since == null) {
            LOG.info("the interrupted {} {} waits for another interrupted operation on its users", operation.kind(),
                    operation.opId());
        } else if (now - since > LONG_WAIT.toNanos() && warned.add(operation.opId())) {
            LOG.warn("the interrupted {} {} has waited for {} for another interrupted operation on its users; its"
                    + " users refuse merges and unmerges until it is completed", operation.kind(), operation.opId(),
                    LONG_WAIT);
        }
    }

    private void abandon(UserJournal.Operation operation, String why) {
        try {
            if (users.abandon(Origin.system("abandon", UUID.randomUUID()), operation)) {
                LOG.warn("abandoned the interrupted {} {}: {}", operation.kind(), operation.opId(), why);
            }
        } catch (EntitiesLockedException e) {
            // the next round tries again
        } catch (RuntimeException e) {
            LOG.warn("the interrupted {} {} could not be abandoned this round: {}", operation.kind(), operation.opId(),
                    e.toString());
        }
    }
}
