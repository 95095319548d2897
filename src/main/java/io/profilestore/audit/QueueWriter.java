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
 *
 * <p>The thread outlives what a batch throws, Errors included (a driver's StackOverflowError): the batch is
 * abandoned, so that nobody waits for it, and the next is written. Only a VirtualMachineError but a stack overflow
 * (an OutOfMemoryError, which in the image ends the process anyway, an InternalError) ends it: the JVM is not to be
 * trusted after one. It abandons its batch and what is queued, takes no more ({@link #taking}), and
 * {@link #stalled} says so to the health check.
 */
public abstract class QueueWriter<T> implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(QueueWriter.class);
    /** How often an idle writer looks whether it is being stopped. */
    private static final Duration IDLE_POLL = Duration.ofMillis(100);

    private final BlockingQueue<T> queue;
    private final int maxBatch;
    private final long lingerNanos;
    private final Duration stopWait;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean started;
    /** What ended the thread before its stop, if anything did. */
    private volatile Throwable ended;

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
        // started once the thread is: before, the health check could see a writer not started yet as stalled
        thread.start();
        started = true;
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

    /** Whether items are still taken: false once stopping, or once the thread has ended. */
    final boolean taking() {
        return running && ended == null;
    }

    /** Whether this is being stopped. */
    final boolean stopping() {
        return !running;
    }

    /** The writer's thread's name. */
    public final String name() {
        return thread.getName();
    }

    /** Whether the writer's thread has ended while the service runs (started and not stopped): nothing is written. */
    public final boolean stalled() {
        return started && running && !thread.isAlive();
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
            List<T> batch = List.of();
            try {
                batch = nextBatch();
                if (!batch.isEmpty()) {
                    write(batch);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (VirtualMachineError e) {
                if (!(e instanceof StackOverflowError)) {
                    end(batch, e);
                    throw e;
                }
                survive(batch, e);
            } catch (Throwable e) {
                survive(batch, e);
            }
        }
    }

    private void survive(List<T> batch, Throwable e) {
        LOG.error("{} failed unexpectedly; {} item(s) not written, it goes on", thread.getName(), batch.size(), e);
        abandonQuietly(batch, e);
    }

    /** Takes no more, and abandons the batch and what is queued (after the flag: one queued later is taken back). */
    private void end(List<T> batch, VirtualMachineError e) {
        ended = e;
        LOG.error("{} ends: the JVM failed ({}); what is queued is not written", thread.getName(), e.toString());
        abandonQuietly(batch, e);
        var left = new ArrayList<T>();
        queue.drainTo(left);
        abandonQuietly(left, e);
    }

    private void abandonQuietly(List<T> items, Throwable why) {
        if (items.isEmpty()) {
            return;
        }
        try {
            abandon(items, why);
        } catch (RuntimeException e) {
            LOG.error("{} could not abandon {} item(s)", thread.getName(), items.size(), e);
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
