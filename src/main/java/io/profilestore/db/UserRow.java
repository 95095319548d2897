package io.profilestore.db;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code persons}: {@code masterUid} is set when the user was merged into another; {@code written} is
 * the row's write timestamp (the fence of its last change), 0 for a row not read from Cassandra.
 */
public record UserRow(UUID uid, UUID masterUid, long version, Instant createdAt, Instant updatedAt, long written) {

    /** The same user at its next version, merged into {@code master} (or not, when null). */
    public UserRow next(UUID master, Instant at) {
        return new UserRow(uid, master, version + 1, createdAt == null ? at : createdAt, at, 0);
    }
}
