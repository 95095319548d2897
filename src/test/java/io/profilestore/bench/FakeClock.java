package io.profilestore.bench;

import java.time.Duration;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * A clock for the load generator's tests that jumps from one event to the next: an answer due in 300 ms comes when
 * the loop's time passes it, in order, on the loop's own thread. A run of minutes takes milliseconds and comes out
 * the same every time.
 */
final class FakeClock implements Load.Clock {

    private record Event(long at, long order, Runnable action) {
    }

    private final PriorityQueue<Event> events =
            new PriorityQueue<>(Comparator.comparingLong(Event::at).thenComparingLong(Event::order));
    private long now = 1_000_000_000L;
    private long order;

    /** Runs {@code action} when the clock reaches {@code delay} from now. */
    void after(Duration delay, Runnable action) {
        events.add(new Event(now + delay.toNanos(), order++, action));
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void parkUntil(long nanos) {
        while (!events.isEmpty() && events.peek().at() <= nanos) {
            runNext();
        }
        now = Math.max(now, nanos);
    }

    @Override
    public void awaitUntil(CompletableFuture<?> done, long deadline) {
        while (!done.isDone() && !events.isEmpty() && events.peek().at() <= deadline) {
            runNext();
        }
        if (!done.isDone()) {
            now = Math.max(now, deadline);
        }
    }

    private void runNext() {
        var event = events.poll();
        now = Math.max(now, event.at());
        event.action().run();
    }
}
