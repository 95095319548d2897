package io.profilestore.db;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The writes of several profiles at once that may still land (recorded, not confirmed yet), as the write path settles
 * them: the port {@link UnsettledChanges} implements on PostgreSQL.
 */
public interface UnsettledWrites {

    /**
     * A change that may still land: its profiles and the fence its write carries; the fence a settler writes its rows
     * again at (null: none yet); and how long ago it was first found landed in part (null: never).
     */
    record Unsettled(UUID holder, List<UUID> pids, long fence, Long revokedFence, Duration partFor) {
    }

    /** The change of this (former) holder that may still land, if it recorded one. */
    Optional<Unsettled> of(UUID holder);

    /** Found landed in part: the time it was first found so is kept. */
    void foundInPart(UUID holder);

    /** The journal that notes, with the settler's record, the fence it writes the rows again at. */
    Journal revoke(UUID holder, long fence);

    /** Keeps the locks until their lease runs out, for the next holder to settle; says whether they were ours. */
    ChangeLocks.Release keepUntilTheLeaseRunsOut(Lease held);

    /** The change stands whole or nowhere now (or was confirmed): it is forgotten. */
    void settled(UUID holder);
}
