package io.profilestore.importer;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
     * elsewhere); completes with the last attempt's outcome. {@code beforeRetry} runs before each attempt after the
     * first, for a count of them.
     */
    public <T> CompletableFuture<T> run(Supplier<? extends CompletionStage<T>> write, BooleanSupplier goOn,
            Runnable beforeRetry) {
        var outcome = new CompletableFuture<T>();
        attempt(write, goOn, beforeRetry, 1, outcome);
        return outcome;
    }

    private <T> void attempt(Supplier<? extends CompletionStage<T>> write, BooleanSupplier goOn, Runnable beforeRetry,
            int attempt, CompletableFuture<T> outcome) {
        CompletionStage<T> stage;
        try {
            stage = write.get();
        } catch (RuntimeException thrown) {
            stage = CompletableFuture.failedFuture(thrown);
        }
        stage.whenComplete((value, error) -> {
            if (error == null) {
                outcome.complete(value);
            } else if (attempt < attempts && goOn.getAsBoolean()) {
                long pause = firstPause.toNanos() << (attempt - 1);
                Executor later = CompletableFuture.delayedExecutor(pause, TimeUnit.NANOSECONDS);
                later.execute(() -> {
                    beforeRetry.run();
                    attempt(write, goOn, beforeRetry, attempt + 1, outcome);
                });
            } else {
                outcome.completeExceptionally(error);
            }
        });
    }
}
