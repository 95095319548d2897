package io.profilestore.audit;

import io.dropwizard.lifecycle.Managed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded queue and the one thread that writes what is taken from it, a batch at a time: what queued while the
 * last batch was written (and, with a linger, what arrives that much later), {@code maxBatch} at most. Stopping ends
 * the taking, lets the thread write what is queued for {@code stopWait} at most, and hands what is left to
 * {@link #abandon}. What a writer does with a batch, and with what it cannot write, is its own.
 */
abstract class QueueWriter<T> implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(QueueWriter.class);
    /** How often an idle writer looks whether it is being stopped. */
    private static final Duration IDLE_POLL = Duration.ofMillis(100);

    private final BlockingQueue<T> queue;
    private final int maxBatch;
    private final long lingerNanos;
    private final Duration stopWait;
    private final Thread thread;
    private volatile boolean running = true;

    QueueWriter(String threadName, int queueSize, int maxBatch, Duration linger, Duration stopWait) {
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.maxBatch = maxBatch;
        this.lingerNanos = linger.toNanos();
        this.stopWait = stopWait;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    /** Writes a batch taken from the queue (never empty). */
    abstract void write(List<T> batch);

    /** What could not be written: left in the queue when the writer stopped. */
    abstract void abandon(List<T> items, Throwable why);

    @Override
    public void start() {
        thread.start();
    }

    /**
     * Stops taking, lets the writer write what is queued for {@code stopWait} at most, and abandons what is left
     * then (and what was queued by a caller that raced with this stop).
     */
    @Override
    public void stop() throws InterruptedException {
        running = false;
        thread.join(stopWait.toMillis());
        var left = new ArrayList<T>();
        queue.drainTo(left);
        if (!left.isEmpty()) {
            abandon(left, new IllegalStateException("the service is stopping"));
        }
    }

    /** Whether items are still taken (false once stopping). */
    final boolean running() {
        return running;
    }

    /** Queues an item; false when the queue is full. */
    final boolean offer(T item) {
        return queue.offer(item);
    }

    /** Takes an item back out of the queue; false when the writer (or stop) has taken it already. */
    final boolean takeBack(T item) {
        return queue.remove(item);
    }

    /** Items waiting now. */
    final int queued() {
        return queue.size();
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                var batch = nextBatch();
                if (!batch.isEmpty()) {
                    write(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("{} failed unexpectedly; it goes on", thread.getName(), e);
            }
        }
    }

    /** The items queued now, after waiting for the first (and lingering for more); empty when none came. */
    private List<T> nextBatch() throws InterruptedException {
        var batch = new ArrayList<T>(Math.min(maxBatch, 64));
        var first = queue.poll(IDLE_POLL.toNanos(), TimeUnit.NANOSECONDS);
        if (first == null) {
            return batch;
        }
        batch.add(first);
        queue.drainTo(batch, maxBatch - batch.size());
        long lingerEnd = System.nanoTime() + lingerNanos;
        for (long left = lingerNanos; batch.size() < maxBatch && left > 0; left = lingerEnd - System.nanoTime()) {
            var more = queue.poll(left, TimeUnit.NANOSECONDS);
            if (more == null) {
                break;
            }
            batch.add(more);
            queue.drainTo(batch, maxBatch - batch.size());
        }
        return batch;
    }
}
