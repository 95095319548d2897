package io.profilestore.profiles;

import io.dropwizard.util.Duration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Limits and timings of the profile write path. */
public class ProfileSettings {

    /**
     * How long a lock is held at most. A holder that crashes blocks its pids no longer than this; a holder slower
     * than this loses its lock and, through fencing, its write. Keep it well above the Cassandra request timeout.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.SECONDS)
    public Duration lockLease = Duration.seconds(5);

    /** The largest {@code data} document, in bytes of compact UTF-8 JSON. */
    @Min(1024)
    @Max(1024 * 1024)
    public int maxDocumentBytes = 64 * 1024;

    /** The most pids one batch update may change. */
    @Min(1)
    @Max(1000)
    public int maxBatchSize = 100;

    /** Attempts of one Cassandra write that times out (the statements are idempotent). */
    @Min(1)
    @Max(10)
    public int writeAttempts = 3;

    /**
     * When Cassandra never confirmed a write, it may still land later (a batchlog replay, hints, a read repair):
     * the change is announced to the indexer again after each of these, so that the index follows if it did.
     */
    @NotNull
    public List<Duration> unknownOutcomeRechecks = List.of(Duration.minutes(1), Duration.minutes(15));
}
