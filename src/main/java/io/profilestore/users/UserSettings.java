package io.profilestore.users;

import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** Limits of users and of merges. */
public class UserSettings {

    /** The most profiles one user may hold (creating, moving or merging beyond it is refused). */
    @Min(1)
    @Max(10_000)
    public int maxProfilesPerUser = 100;

    /** The most users one merge may take in. */
    @Min(1)
    @Max(100)
    public int maxMergeSources = 10;

    /**
     * The most users one tree of merges may hold, its root included: a merge or unmerge rewrites the row of every
     * user it moves to another root, in one batch.
     */
    @Min(2)
    @Max(1_000)
    public int maxMergedUsers = 100;

    /**
     * The most document bytes one merge or unmerge may rewrite: they go to Cassandra as one logged batch, which
     * Cassandra refuses beyond its batch_size_fail_threshold.
     */
    @NotNull
    public DataSize maxMergeSize = DataSize.mebibytes(4);

    /** How long an interrupted merge or unmerge waits before the recovery completes it. */
    @NotNull
    public Duration recoveryDelay = Duration.seconds(15);

    /**
     * How often the table check (check-tables) runs on its own, on one API instance at a time; 0 turns it off
     * (the command and the admin task remain).
     */
    @NotNull
    public Duration checkTablesEvery = Duration.hours(6);
}
