package io.profilestore.core;

import io.dropwizard.lifecycle.Managed;
import io.profilestore.audit.AuditContext;
import io.profilestore.DaemonScheduler;
import io.profilestore.db.EntitiesLockedException;
import io.profilestore.db.UserOperations;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes merges and unmerges a crash interrupted: an operation still pending after the delay is resumed under
 * fresh locks (see {@link UserService}); one that can no longer be done as recorded (its users changed since, or
 * it would now break a limit) is abandoned: what its batch would have written is written again as it stands, at a
 * fence above it, so that the batch loses should it land late ({@link UserService#abandon}). Every API instance
 * runs it; the locks keep two from resuming the same operation at once.
 */
public class UserOperationRecovery implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(UserOperationRecovery.class);

    private final UserOperations journal;
    private final UserService users;
    private final Duration delay;
    private final Duration interval;
    private ScheduledExecutorService scheduler;

    public UserOperationRecovery(UserOperations journal, UserService users, Duration delay, Duration interval) {
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
    public void recover() {
        List<UserOperations.Operation> pending;
        try {
            pending = journal.pending(delay);
        } catch (RuntimeException e) {
            LOG.warn("recovery of user operations failed this round: {}", e.toString());
            return;
        }
        for (var operation : pending) {
            try {
                // the recovery completes the operation as the request that recorded it: its rows say so
                AuditContext.asSystem("recovery", operation.requestId() != null ? operation.requestId() : operation.opId(),
                        () -> {
                            users.resume(operation);
                            return null;
                        });
                LOG.info("completed the interrupted {} {}", operation.kind(), operation.opId());
            } catch (EntitiesLockedException e) {
                // someone works on these users now: the next round tries again
            } catch (UserOperationException | UserMergedException | UserNotFoundException | UserFullException e) {
                abandon(operation, e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("the interrupted {} {} could not be completed this round: {}", operation.kind(),
                        operation.opId(), e.toString());
            }
        }
    }

    private void abandon(UserOperations.Operation operation, String why) {
        try {
            if (AuditContext.asSystem("abandon", UUID.randomUUID(), () -> users.abandon(operation))) {
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
