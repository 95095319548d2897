package io.profilestore.bench;

import java.io.InterruptedIOException;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The load generator. Open loop: requests start at a fixed rate whatever the answers do, and each latency is
 * measured from the moment the request was due, not from when it could be sent, so a stall counts for every
 * request it held up (no coordinated omission). Closed loop: a fixed number of clients, each sending its next
 * request when the last one is answered, for throughput. The warm-up is run and thrown away.
 *
 * <p>Every request of the measured part counts once, as one of: a success (2xx, 3xx), an outcome the scenario
 * expects (409 and 412 where clients contend for a profile), an error (any other status, or a failure), or a
 * timeout (a failure that says so, or no answer at all by {@link #PATIENCE} after the run: it then counts at the
 * time the run stopped waiting for it). All of them count in {@link Result#all()} at the time they took; successes
 * also in {@link Result#latencies()}.
 */
public final class Load {

    /** How long a run waits for its last answers; what has not answered by then is a timeout. */
    static final Duration PATIENCE = Duration.ofMinutes(2);

    /** The longest latency the histograms keep (µs): a timeout after a long run and {@link #PATIENCE} fits. */
    static final long HIGHEST = TimeUnit.MINUTES.toMicros(30);

    /**
     * What one run measured. Latencies in microseconds: {@code latencies} of the successes, {@code all} of every
     * request counted (successes, expected outcomes, errors and timeouts). {@code throughput}: for a load run,
     * successful answers that came within the measured window, per second. {@code statuses}: how many counted
     * requests were answered with each status. {@code window}: when it was measured, and for an open loop the
     * slowest latency of the requests due in each of its seconds; {@code null} for a result made otherwise.
     */
    public record Result(String scenario, double targetRate, double throughput, Histogram latencies, Histogram all,
            long errors, long timeouts, SortedMap<Integer, Long> statuses, String firstError, Window window) {

        /** A result measured otherwise than by this class (the import, the index lag): its successes only. */
        Result(String scenario, double targetRate, double throughput, Histogram latencies, long errors, String firstError) {
            this(scenario, targetRate, throughput, latencies, latencies.copy(), errors, 0, new TreeMap<>(), firstError,
                    null);
        }

        /** Of every request counted, the share that was answered with {@code status}. */
        double share(int status) {
            long counted = all.getTotalCount();
            return counted == 0 ? 0 : statuses.getOrDefault(status, 0L) / (double) counted;
        }

        /**
         * Runs of one scenario, each as long as the others, as one result: their latencies and their mean rate (no
         * one window: the CPU report leaves it out).
         */
        static Result together(List<Result> runs) {
            var latencies = histogram();
            var all = histogram();
            var statuses = new TreeMap<Integer, Long>();
            for (var run : runs) {
                latencies.add(run.latencies());
                all.add(run.all());
                run.statuses().forEach((status, count) -> statuses.merge(status, count, Long::sum));
            }
            return new Result(runs.get(0).scenario(), runs.get(0).targetRate(),
                    runs.stream().mapToDouble(Result::throughput).average().orElse(0), latencies, all,
                    runs.stream().mapToLong(Result::errors).sum(), runs.stream().mapToLong(Result::timeouts).sum(),
                    statuses, runs.stream().map(Result::firstError).filter(Objects::nonNull).findFirst().orElse(null),
                    null);
        }
    }

    /**
     * The measured part of a run, in {@link System#nanoTime()}, and the slowest latency (microseconds) of the
     * requests due in each of its seconds (empty for a closed loop).
     */
    public record Window(long fromNanos, long toNanos, AtomicLongArray slowestBySecond) {
    }

    /** An operation: starts a request and completes with its HTTP-like status. */
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
                // the deadline came first: the caller counts what is still unanswered
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the last answers", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    };

    /**
     * Whether a failure says that something gave up waiting: the JDK's and the HTTP client's timeouts
     * ({@link TimeoutException}, {@link InterruptedIOException}: a socket's or the connection pool's), the drivers'
     * ({@code DriverTimeoutException}, {@code ReadTimeoutException}, {@link SQLTimeoutException}), anywhere among
     * its causes. The drivers' share no type, hence their names.
     */
    static boolean isTimeout(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TimeoutException || t instanceof InterruptedIOException || t instanceof SQLTimeoutException
                    || t.getClass().getSimpleName().contains("Timeout")) {
                return true;
            }
        }
        return false;
    }

    private Load() {
    }

    /** The load generator's threads are named so (the CPU meter tells them from the service's by it). */
    static final String THREADS = "bench-load";

    /** An open loop whose every answer other than 2xx and 3xx is an error. */
    public static Result openLoop(String scenario, double rate, Duration warmup, Duration measured, Operation operation) {
        return openLoop(scenario, rate, warmup, measured, Set.of(), operation);
    }

    /** An open loop that expects the statuses of {@code outcomes} beside successes: they count, but not as errors. */
    public static Result openLoop(String scenario, double rate, Duration warmup, Duration measured,
            Set<Integer> outcomes, Operation operation) {
        var caller = Thread.currentThread();
        String name = caller.getName();
        caller.setName(THREADS);
        try {
            return openLoopOnThisThread(SYSTEM, PATIENCE, scenario, rate, warmup, measured, outcomes, operation);
        } finally {
            caller.setName(name);
        }
    }

    /**
     * Several operations in one open loop, taking turns request by request (the first, the second, ..., the first
     * again) at {@code rate} in all, each counted apart: one result per scenario, at {@code rate / n} each. A
     * comparison measured so shares the window, the client, its threads and whatever else the machine did then,
     * which two scenarios run one after the other do not.
     */
    public static List<Result> interleaved(List<String> scenarios, double rate, Duration warmup, Duration measured,
            List<Operation> operations) {
        var caller = Thread.currentThread();
        String name = caller.getName();
        caller.setName(THREADS);
        try {
            return openLoopOnThisThread(SYSTEM, PATIENCE, scenarios, rate, warmup, measured, Set.of(), operations);
        } finally {
            caller.setName(name);
        }
    }

    /** Starts each request when it is due, on this thread. */
    static Result openLoopOnThisThread(Clock clock, Duration patience, String scenario, double rate, Duration warmup,
            Duration measured, Set<Integer> outcomes, Operation operation) {
        return openLoopOnThisThread(clock, patience, List.of(scenario), rate, warmup, measured, outcomes,
                List.of(operation)).get(0);
    }

    /** The same with operations taking turns, each counted by a tally of its own. */
    static List<Result> openLoopOnThisThread(Clock clock, Duration patience, List<String> scenarios, double rate,
            Duration warmup, Duration measured, Set<Integer> outcomes, List<Operation> operations) {
        if (scenarios.size() != operations.size() || operations.isEmpty()) {
            throw new IllegalArgumentException("one scenario name for each operation");
        }
        int turns = operations.size();
        var tallies = new Tally[turns];
        var answeredInWindow = new AtomicLong[turns];
        for (int t = 0; t < turns; t++) {
            tallies[t] = new Tally(outcomes);
            answeredInWindow[t] = new AtomicLong();
        }
        // the counted requests not answered yet, by number, with when each was due and whose turn it was: whoever
        // takes one out counts it
        var pending = new ConcurrentHashMap<Long, long[]>();
        // each round of turns in an order of its own: in a fixed order each kind would always start while the one
        // before it is still at work, and on two cores that would weigh on the kinds that follow
        var order = new Random(turns);
        var round = new int[turns];
        // the loop's own share and one per request; whoever brings it to 0 completes allAnswered
        var outstanding = new AtomicLong(1);
        var allAnswered = new CompletableFuture<Void>();
        long interval = (long) (1e9 / rate);
        long start = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + measured.toNanos();
        var slowest = new AtomicLongArray[turns];
        for (int t = 0; t < turns; t++) {
            slowest[t] = new AtomicLongArray((int) Math.max(1, measured.toSeconds()));
        }
        for (long i = 0; ; i++) {
            long due = start + i * interval;
            if (due >= end) {
                break;
            }
            clock.parkUntil(due);
            boolean counted = due >= measureFrom;
            long number = i;
            if (i % turns == 0) {
                shuffle(round, order);
            }
            int turn = round[(int) (i % turns)];
            var tally = tallies[turn];
            if (counted) {
                pending.put(number, new long[] {due, turn});
            }
            outstanding.incrementAndGet();
            CompletableFuture<Integer> request;
            try {
                request = operations.get(turn).get();
            } catch (RuntimeException e) {
                request = CompletableFuture.failedFuture(e);
            }
            request.whenComplete((status, failure) -> {
                long now = clock.nanoTime();
                long latency = (now - due) / 1_000;
                var kind = counted && pending.remove(number) != null ? tally.answered(status, failure, latency) : null;
                if (kind != null) {
                    slowest[turn].accumulateAndGet(second(due, measureFrom, slowest[turn]), latency, Math::max);
                }
                // what a warm-up request answers counts in no percentile, but a success in the window is throughput
                boolean success = kind == Tally.Kind.SUCCESS || !counted && failure == null && status != null && status < 400;
                if (success && now >= measureFrom && now < end) {
                    answeredInWindow[turn].incrementAndGet();
                }
                if (outstanding.decrementAndGet() == 0) {
                    allAnswered.complete(null);
                }
            });
        }
        if (outstanding.decrementAndGet() == 0) {
            allAnswered.complete(null);
        }
        clock.awaitUntil(allAnswered, clock.nanoTime() + patience.toNanos());
        long stopped = clock.nanoTime();
        for (var number : List.copyOf(pending.keySet())) {
            long[] unanswered = pending.remove(number);
            if (unanswered != null) {
                long due = unanswered[0];
                int turn = (int) unanswered[1];
                tallies[turn].unanswered((stopped - due) / 1_000);
                slowest[turn].accumulateAndGet(second(due, measureFrom, slowest[turn]), (stopped - due) / 1_000, Math::max);
            }
        }
        var results = new ArrayList<Result>();
        for (int t = 0; t < turns; t++) {
            results.add(tallies[t].result(scenarios.get(t), rate / turns,
                    answeredInWindow[t].get() / (measured.toNanos() / 1e9), new Window(measureFrom, end, slowest[t])));
        }
        return results;
    }

    /** {@code turns} as 0 to its length - 1, in an order drawn anew (Fisher-Yates). */
    static void shuffle(int[] turns, Random random) {
        for (int i = 0; i < turns.length; i++) {
            turns[i] = i;
        }
        for (int i = turns.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = turns[i];
            turns[i] = turns[j];
            turns[j] = swap;
        }
    }

    private static int second(long due, long measureFrom, AtomicLongArray slowest) {
        return (int) Math.min(slowest.length() - 1, (due - measureFrom) / 1_000_000_000L);
    }

    /**
     * {@code clients} loops back to back; the rate of successful operations answered within the window,
     * {@code weight} each. A request started in the window counts wherever it ends; one still unanswered
     * {@link #PATIENCE} after the window is a timeout, and its client stops.
     */
    public static Result closedLoop(String scenario, int clients, int weight, Duration warmup, Duration measured,
            Operation operation) {
        var tally = new Tally(Set.of());
        var done = new AtomicLong();
        long start = System.nanoTime();
        long measureFrom = start + warmup.toNanos();
        long end = measureFrom + measured.toNanos();
        long giveUp = end + PATIENCE.toNanos();
        var loops = new CompletableFuture<?>[clients];
        var threads = Executors.newFixedThreadPool(clients, named(THREADS));
        for (int c = 0; c < clients; c++) {
            loops[c] = CompletableFuture.runAsync(() -> {
                while (System.nanoTime() < end) {
                    long began = System.nanoTime();
                    CompletableFuture<Integer> request;
                    try {
                        request = operation.get();
                    } catch (RuntimeException e) {
                        request = CompletableFuture.failedFuture(e);
                    }
                    Integer status = null;
                    Throwable failure = null;
                    boolean unanswered = false;
                    try {
                        status = request.get(Math.max(0, giveUp - System.nanoTime()), TimeUnit.NANOSECONDS);
                    } catch (TimeoutException e) {
                        unanswered = true;
                    } catch (ExecutionException e) {
                        failure = e.getCause();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    long finished = System.nanoTime();
                    if (began >= measureFrom) {
                        if (unanswered) {
                            tally.unanswered((finished - began) / 1_000);
                        } else if (tally.answered(status, failure, (finished - began) / 1_000) == Tally.Kind.SUCCESS
                                && finished < end) {
                            done.addAndGet(weight);
                        }
                    }
                    if (unanswered) {
                        return;
                    }
                }
            }, threads);
        }
        CompletableFuture.allOf(loops).join();
        threads.shutdown();
        return tally.result(scenario, 0, done.get() / (measured.toNanos() / 1e9),
                new Window(measureFrom, end, new AtomicLongArray(0)));
    }

    static Histogram histogram() {
        return new ConcurrentHistogram(HIGHEST, 3);
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
