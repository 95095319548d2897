package io.profilestore.db;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Locks held on some entities by one holder. {@code fence} is the write timestamp (microseconds since the epoch,
 * PostgreSQL's clock) every Cassandra write under these locks carries: it is larger than the fence of any earlier
 * holder of any of the entities, so a write of a holder that lost its lock loses last-write-wins to the next one.
 *
 * @param acquiredNanos {@link System#nanoTime()} just before the locks were asked for
 */
public record Lease(UUID holder, List<String> entities, long fence, long acquiredNanos) {

    public Lease {
        entities = List.copyOf(entities);
    }

    /**
     * The fence as a point in time, to the millisecond that Cassandra's {@code timestamp} columns keep: changes
     * made under this lease are stamped with it, so the clocks of the API instances never show in the data.
     */
    public Instant timestamp() {
        return Instant.ofEpochMilli(Math.floorDiv(fence, 1_000L));
    }
}
