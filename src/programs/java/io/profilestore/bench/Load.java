package io.profilestore.bench;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The load generator. Open loop: requests start at a fixed rate whatever the answers do, and each latency is
 * measured from the moment the request was due, not from when it could be sent, so a stall counts for every
 * request it held up (no coordinated omission). Closed loop: a fixed number of clients, each sending its next
 * request when the last one is answered, for throughput. The warm-up is run and thrown away.
 */
public final class Load {

    /**
     * What one run measured. Latencies in microseconds. {@code window}: when it was measured, and for an open loop
     * the slowest latency of the requests due in each of its seconds; {@code null} for a result made otherwise.
     */
    public record Result(String scenario, double targetRate, double throughput, Histogram latencies, long errors,
            String firstError, Window window) {

        Result(String scenario, double targetRate, double throughput, Histogram latencies, long errors, String firstError) {
            this(scenario, targetRate, throughput, latencies, errors, firstError, null);
        }

        /** Runs of one scenario, each as long as the others, as one result: their latencies and their mean rate. */
        static Result together(List<Result> runs) {
            var latencies = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3);
            runs.forEach(run -> latencies.add(run.latencies()));
            return new Result(runs.get(0).scenario(), runs.get(0).targetRate(),
                    runs.stream().mapToDouble(Result::throughput).average().orElse(0), latencies,
                    runs.stream().mapToLong(Result::errors).sum(),
                    runs.stream().map(Result::firstError).filter(Objects::nonNull).findFirst().orElse(null));
        }
    }

    /**
     * The measured part of a run, in {@link System#nanoTime()}, and the slowest latency (microseconds) of the
     * requests due in each of its seconds (empty for a closed loop).
     */
    public record Window(long fromNanos, long toNanos, AtomicLongArray slowestBySecond) {
    }

    /** An operation: starts a request and completes with its HTTP-like status (2xx, 3xx good; else an error). */
    public interface Operation extends Supplier<CompletableFuture<Integer>> {
    }

    /** Time as the open loop reads it and waits for it: the machine's, or a test's that runs no slower than its events. */
    interface Clock {
        long nanoTime();

        /** Returns once the clock has reached {@code nanos}. */
        void parkUntil(long nanos);

        /** Returns once {@code done} has completed or the clock has reached {@code deadline}, whichever is first. */
        void awaitUntil(CompletableFuture<?> done, long deadline);
    }

    /** The machine's monotonic clock. */
    static final Clock SYSTEM = new Clock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void parkUntil(long nanos) {
            for (long wait = nanos - System.nanoTime(); wait > 0; wait = nanos - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
        }

        @Override
        public void awaitUntil(CompletableFuture<?> done, long deadline) {
            try {
                done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // the deadline came first: the caller looks at what is still unanswered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the last answers", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    };

    private Load() {
    }

    /** The load generator's threads are named so (the CPU meter tells them from the service's by it). */
    static final String THREADS = "bench-load";

    public static Result openLoop(String scenario, double rate, Duration warmup, Duration measured, Operation operation) {
        var caller = Thread.currentThread();
        String name = caller.getName();
        caller.setName(THREADS);
        try {
            return openLoopOnThisThread(SYSTEM, scenario, rate, warmup, measured, operation);
        } finally {
            caller.setName(name);
        }
    }

    /** Starts each request when it is due, on this thread. */
    static Result openLoopOnThisThread(Clock clock, String scenario, double rate, Duration warmup, Duration measured,
            Operation operation) {
        var histogram = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3);
        var errors = new AtomicLong();
        var firstError = new AtomicReference<String>();
        // the loop's own share and one per request; whoever brings it to 0 completes allAnswered
        var outstanding = new AtomicLong(1);
        var allAnswered = new CompletableFuture<Void>();
        long interval = (long) (1e9 / rate);
        long start = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + measured.toNanos();
        long completed = 0;
        var slowest = new AtomicLongArray((int) Math.max(1, measured.toSeconds()));
        for (long i = 0; ; i++) {
            long due = start + i * interval;
            if (due >= end) {
                break;
            }
            clock.parkUntil(due);
            boolean counted = due >= measureFrom;
            if (counted) {
                completed++;
            }
            outstanding.incrementAndGet();
            CompletableFuture<Integer> request;
            try {
                request = operation.get();
            } catch (RuntimeException e) {
                request = CompletableFuture.failedFuture(e);
            }
            request.whenComplete((status, failure) -> {
                long latency = (clock.nanoTime() - due) / 1_000;
                if (counted) {
                    if (failure != null || status == null || status >= 400) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, failure != null ? failure.toString() : "status " + status);
                    } else {
                        histogram.recordValue(Math.min(latency, histogram.getHighestTrackableValue()));
                    }
                    int second = (int) Math.min(slowest.length() - 1, (due - measureFrom) / 1_000_000_000L);
                    slowest.accumulateAndGet(second, latency, Math::max);
                }
                if (outstanding.decrementAndGet() == 0) {
                    allAnswered.complete(null);
                }
            });
        }
        if (outstanding.decrementAndGet() == 0) {
            allAnswered.complete(null);
        }
        clock.awaitUntil(allAnswered, clock.nanoTime() + TimeUnit.MINUTES.toNanos(2));
        if (!allAnswered.isDone()) {
            throw new IllegalStateException("requests still unanswered two minutes after the run");
        }
        return new Result(scenario, rate, completed / (measured.toNanos() / 1e9), histogram, errors.get(), firstError.get(),
                new Window(measureFrom, end, slowest));
    }

    /** {@code clients} loops back to back; returns the rate of successful operations, {@code weight} each. */
    public static Result closedLoop(String scenario, int clients, int weight, Duration warmup, Duration measured,
            Operation operation) {
        var histogram = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3);
        var errors = new AtomicLong();
        var done = new AtomicLong();
        var firstError = new AtomicReference<String>();
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + measured.toNanos();
        var loops = new CompletableFuture<?>[clients];
        var threads = Executors.newFixedThreadPool(clients, named(THREADS));
        for (int c = 0; c < clients; c++) {
            loops[c] = CompletableFuture.runAsync(() -> {
                while (System.nanoTime() < end) {
                    long began = System.nanoTime();
                    Integer status;
                    try {
                        status = operation.get().join();
                    } catch (RuntimeException e) {
                        status = null;
                        firstError.compareAndSet(null, e.toString());
                    }
                    long finished = System.nanoTime();
                    if (began >= measureFrom && finished <= end) {
                        if (status == null || status >= 400) {
                            errors.incrementAndGet();
                            firstError.compareAndSet(null, "status " + status);
                        } else {
                            histogram.recordValue((finished - began) / 1_000);
                            done.addAndGet(weight);
                        }
                    }
                }
            }, threads);
        }
        CompletableFuture.allOf(loops).join();
        threads.shutdown();
        return new Result(scenario, 0, done.get() / (measured.toNanos() / 1e9), histogram, errors.get(), firstError.get(),
                new Window(measureFrom, end, new AtomicLongArray(0)));
    }

    /** Threads named {@code prefix-1}, {@code prefix-2}, ... */
    static ThreadFactory named(String prefix) {
        var next = new AtomicInteger();
        return run -> {
            var thread = new Thread(run, prefix + "-" + next.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
