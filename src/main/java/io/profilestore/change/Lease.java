package io.profilestore.change;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Locks held on some entities by one holder. {@code fence} is the write timestamp (microseconds since the epoch,
 * PostgreSQL's clock) every Cassandra write under these locks carries: it is larger than the fence of any earlier
 * holder of any of the entities, so a write of a holder that lost its lock loses last-write-wins to the next one.
 *
 * @param acquiredNanos {@link System#nanoTime()} just before the locks were asked for
 * @param unsettledBy   the earlier holders of entities of the last acquisition whose change of several profiles
 *                      may still land ({@link UnsettledChanges}): it is settled before anything is read
 */
public record Lease(UUID holder, List<String> entities, long fence, long acquiredNanos, Set<UUID> unsettledBy) {

    public Lease {
        entities = List.copyOf(entities);
        unsettledBy = Set.copyOf(unsettledBy);
    }

    public Lease(UUID holder, List<String> entities, long fence, long acquiredNanos) {
        this(holder, entities, fence, acquiredNanos, Set.of());
    }

    /**
     * The fence as a point in time, to the millisecond that Cassandra's {@code timestamp} columns keep: changes
     * made under this lease are stamped with it, so the clocks of the API instances never show in the data.
     */
    public Instant timestamp() {
        return Instant.ofEpochMilli(Math.floorDiv(fence, 1_000L));
    }
}
