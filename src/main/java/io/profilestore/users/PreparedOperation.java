package io.profilestore.users;

import java.time.Instant;
import java.util.function.BiFunction;

/** An operation read and checked: done already, or to be written at a fence above {@link #newestWrite()}. */
public final class PreparedOperation<A> {
    private final A finished;
    private final long newestWrite;
    private final BiFunction<Instant, Long, UserPlan<A>> plan;

    PreparedOperation(A finished, long newestWrite, BiFunction<Instant, Long, UserPlan<A>> plan) {
        this.finished = finished;
        this.newestWrite = newestWrite;
        this.plan = plan;
    }

    static <A> PreparedOperation<A> done(A answer) {
        return new PreparedOperation<>(answer, 0, null);
    }

    /** The answer of an operation with nothing (left) to write; null when {@link #plan} has work. */
    public A finished() {
        return finished;
    }

    /** The latest write time of the rows the operation replaces: its fence must exceed it. */
    public long newestWrite() {
        return newestWrite;
    }

    /** What to write at {@code at} with {@code fence}. */
    public UserPlan<A> plan(Instant at, long fence) {
        return plan.apply(at, fence);
    }
}
