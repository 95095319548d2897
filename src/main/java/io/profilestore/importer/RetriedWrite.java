package io.profilestore.importer;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How an import writes a record: a write Cassandra refuses or does not answer in time is tried again, after 1, 2, 4
 * and 8 s (long enough for a node's restart). Trying again is harmless whether or not the first attempt landed: an
 * import writes the same cells at the same time. The benchmark's raw writes go through it too, so that they do the
 * import's work and no less.
 */
public final class RetriedWrite {

    /** The import's: five attempts, the first retry after a second. */
    public static final RetriedWrite IMPORT = new RetriedWrite(5, Duration.ofSeconds(1));

    private final int attempts;
    private final Duration firstPause;

    public RetriedWrite(int attempts, Duration firstPause) {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt, not " + attempts);
        }
        this.attempts = attempts;
        this.firstPause = firstPause;
    }

    /**
     * Runs {@code write} until it succeeds, the attempts are spent, or {@code goOn} says no more (the run failed
     * elsewhere; asked when an attempt fails and again when its pause is over); completes with the last attempt's
     * outcome, always, whatever throws. {@code beforeRetry} is given the failure each retry follows, for a count and a
     * cause to report.
     */
    public <T> CompletableFuture<T> run(Supplier<? extends CompletionStage<T>> write, BooleanSupplier goOn,
            Consumer<Throwable> beforeRetry) {
        var outcome = new CompletableFuture<T>();
        attempt(write, goOn, beforeRetry, 1, outcome);
        return outcome;
    }

    private <T> void attempt(Supplier<? extends CompletionStage<T>> write, BooleanSupplier goOn,
            Consumer<Throwable> beforeRetry, int attempt, CompletableFuture<T> outcome) {
        CompletionStage<T> stage;
        try {
            stage = write.get();
            if (stage == null) {
                throw new IllegalStateException("the write returned no future");
            }
        } catch (Throwable thrown) {
            // thrown before any future: a failed attempt like any other, never an outcome left open
            stage = CompletableFuture.failedFuture(thrown);
        }
        stage.whenComplete((value, error) -> {
            try {
                if (error == null) {
                    outcome.complete(value);
                } else if (attempt < attempts && goOn.getAsBoolean()) {
                    long pause = firstPause.toNanos() << (attempt - 1);
                    Executor later = CompletableFuture.delayedExecutor(pause, TimeUnit.NANOSECONDS);
                    later.execute(() -> {
                        try {
                            if (!goOn.getAsBoolean()) {
                                outcome.completeExceptionally(error);
                                return;
                            }
                            beforeRetry.accept(error);
                            attempt(write, goOn, beforeRetry, attempt + 1, outcome);
                        } catch (Throwable thrown) {
                            outcome.completeExceptionally(thrown);
                        }
                    });
                } else {
                    outcome.completeExceptionally(error);
                }
            } catch (Throwable thrown) {
                outcome.completeExceptionally(thrown);
            }
        });
    }
}
