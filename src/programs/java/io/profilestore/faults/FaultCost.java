package io.profilestore.faults;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * What one fault cost the workload, as the report's table gives it: the requests under way from the fault's start
 * until 10 s after it healed, or until the next fault struck if sooner (those in flight when it struck too: they began
 * before it, and an API kill's errors are theirs), how many got an error (5xx, or no answer), their latency, and how long after the heal the first change
 * that began after it was acknowledged.
 *
 * @param requests    the requests sent in the window
 * @param refused     attempts whose connection was refused (the instance was down or starting), each sent again to
 *                    the other instance as a load balancer would: never sent, so neither a request nor an error
 * @param errors      of those, the ones answered 5xx or not answered
 * @param p50Micros   their latency's median, in µs
 * @param p99Micros   their latency's 99th percentile, in µs
 * @param recovered   from the heal to the end of the first acknowledged change that began after it, in ns
 */
record FaultCost(long requests, long refused, long errors, long p50Micros, long p99Micros, OptionalLong recovered) {

    /** After a fault heals, how long its costs are still counted against it. */
    static final long AFTERMATH = Duration.ofSeconds(10).toNanos();

    /**
     * @param all every fault of the run: the quiet after this one ends when the next is struck (the quick run's quiet
     *            spells, 5-10 s, are shorter than the aftermath), and what was in flight then, or after, is the next
     *            one's
     */
    static FaultCost of(Fault.Injected fault, List<Fault.Injected> all, List<Event> history) {
        long nextStruck = all.stream().mapToLong(Fault.Injected::start).filter(start -> start > fault.healed()).min()
                .orElse(Long.MAX_VALUE);
        long windowEnd = Math.min(fault.healed() + AFTERMATH, nextStruck);
        var inWindow = history.stream()
                .filter(e -> e.end() >= fault.start() && e.start() <= windowEnd && e.end() <= nextStruck).toList();
        var sent = inWindow.stream().filter(e -> !notSent(e)).toList();
        long errors = sent.stream().filter(e -> e.status() == 0 || e.status() >= 500).count();
        var latency = new Histogram(3);
        sent.forEach(e -> latency.recordValue(Math.max(1, (e.end() - e.start()) / 1_000)));
        var firstOk = history.stream().filter(e -> e.isChange() && e.ok() && e.start() >= fault.healed())
                .mapToLong(Event::end).min();
        return new FaultCost(sent.size(), inWindow.size() - sent.size(), errors, latency.getValueAtPercentile(50),
                latency.getValueAtPercentile(99),
                firstOk.isPresent() ? OptionalLong.of(firstOk.getAsLong() - fault.healed()) : OptionalLong.empty());
    }

    /**
     * An attempt whose connection was refused: a change's is recorded as {@code refused}, a read's as a {@code read}
     * that names no profile (Workload's {@code failedAttempt}; a read that was sent always names its profile). An API
     * kill's "errors" were these: the 1,329 of the run of 2026-12-03's first API kill were 1,324 reads refused by the
     * dead instance over its 130 s start, and 5 changes in flight when it died.
     */
    static boolean notSent(Event e) {
        return e.op().equals("refused") || e.op().equals("read") && e.status() == 0 && e.pids().isEmpty();
    }
}
