package io.profilestore.testing;

import io.profilestore.change.Lease;
import io.profilestore.change.WritePathProbe;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds the next change of one profile at one step of the write path until the test lets it go: a writer
 * paused by GC or the network, made to order.
 */
public final class PausingProbe implements WritePathProbe {

    public enum Step { LOCKED, COMMITTING, RECORDED, WRITTEN }

    /** One armed pause. */
    public static final class Pause {
        private final String entity;
        private final Step step;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile Lease lease;

        private Pause(String entity, Step step) {
            this.entity = entity;
            this.step = step;
        }

        /** Waits until the change reached the step; returns its lease. */
        public Lease awaitReached(Duration timeout) throws InterruptedException {
            if (!reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no change of " + entity + " reached " + step + " within " + timeout);
            }
            return lease;
        }

        /** Whether the change has reached the step (and waits there, until resumed). */
        public boolean reached() {
            return reached.getCount() == 0;
        }

        public void resume() {
            released.countDown();
        }
    }

    /** Disarms the pause still armed, if any (a change expected to stop at it did not get there). */
    public void disarm() {
        armed.set(null);
    }

    private final AtomicReference<Pause> armed = new AtomicReference<>();

    /** Arms a pause for the next change of this profile at this step. */
    public Pause pauseNext(UUID pid, Step step) {
        return pauseNextOf("profile:" + pid, step);
    }

    /** Arms a pause for the next change that locks this entity ({@code user:<uid>}, say) at this step. */
    public Pause pauseNextOf(String entity, Step step) {
        var pause = new Pause(entity, step);
        if (!armed.compareAndSet(null, pause)) {
            throw new IllegalStateException("a pause is armed already");
        }
        return pause;
    }

    @Override
    public void locked(Lease lease) {
        hold(lease, Step.LOCKED);
    }

    @Override
    public void committing(Lease lease) {
        hold(lease, Step.COMMITTING);
    }

    @Override
    public void recorded(Lease lease) {
        hold(lease, Step.RECORDED);
    }

    @Override
    public void written(Lease lease) {
        hold(lease, Step.WRITTEN);
    }

    private void hold(Lease lease, Step step) {
        var pause = armed.get();
        if (pause == null || pause.step != step || !lease.entities().contains(pause.entity)
                || !armed.compareAndSet(pause, null)) {
            return;
        }
        pause.lease = lease;
        pause.reached.countDown();
        try {
            if (!pause.released.await(2, TimeUnit.MINUTES)) {
                throw new IllegalStateException("a paused change was never resumed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
