package io.profilestore.bench;

import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/** The counts of one scenario's measured requests, shared by the threads that answer them ({@link Load}). */
final class Tally {

    /** How a counted request ended. */
    enum Kind { SUCCESS, OUTCOME, ERROR, TIMEOUT }

    final Histogram successes = Load.histogram();
    final Histogram all = Load.histogram();
    final AtomicLong errors = new AtomicLong();
    final AtomicLong timeouts = new AtomicLong();
    final ConcurrentHashMap<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
    final AtomicReference<String> firstError = new AtomicReference<>();
    final Set<Integer> outcomes;

    Tally(Set<Integer> outcomes) {
        this.outcomes = outcomes;
    }

    Kind answered(Integer status, Throwable failure, long micros) {
        all.recordValue(Math.min(micros, Load.HIGHEST));
        if (failure != null || status == null) {
            var kind = failure != null && Load.isTimeout(failure) ? Kind.TIMEOUT : Kind.ERROR;
            (kind == Kind.TIMEOUT ? timeouts : errors).incrementAndGet();
            firstError.compareAndSet(null, failure != null ? failure.toString() : "no status");
            return kind;
        }
        statuses.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
        if (status < 400) {
            successes.recordValue(Math.min(micros, Load.HIGHEST));
            return Kind.SUCCESS;
        }
        if (outcomes.contains(status)) {
            return Kind.OUTCOME;
        }
        errors.incrementAndGet();
        firstError.compareAndSet(null, "status " + status);
        return Kind.ERROR;
    }

    /** A request still unanswered when the run stopped waiting: a timeout, at the time it had taken by then. */
    void unanswered(long micros) {
        all.recordValue(Math.min(micros, Load.HIGHEST));
        timeouts.incrementAndGet();
        firstError.compareAndSet(null, "no answer within " + (micros / 1_000_000) + " s");
    }

    Load.Result result(String scenario, double targetRate, double throughput, Load.Window window) {
        var counts = new TreeMap<Integer, Long>();
        statuses.forEach((status, count) -> counts.put(status, count.get()));
        return new Load.Result(scenario, targetRate, throughput, successes, all, errors.get(), timeouts.get(), counts,
                firstError.get(), window);
    }
}
