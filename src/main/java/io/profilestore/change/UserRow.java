package io.profilestore.change;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code persons}. A merged user has {@code mergedInto}, the user it was merged into (its parent in the
 * forest of merges), and {@code masterUid}, the root of its tree; both are null for a user merged into nobody.
 * {@code written} is the row's write timestamp (the fence of its last change), 0 for a row not read from Cassandra;
 * {@code writtenBy} the id of the change that wrote it, null for a row the change being written makes (see
 * {@link ProfileRow}).
 */
public record UserRow(UUID uid, UUID masterUid, UUID mergedInto, long version, Instant createdAt, Instant updatedAt,
        long written, UUID writtenBy) {

    /** A row this change makes: its writer ({@code written_by}) is the change's, as for {@link ProfileRow}. */
    public UserRow(UUID uid, UUID masterUid, UUID mergedInto, long version, Instant createdAt, Instant updatedAt,
            long written) {
        this(uid, masterUid, mergedInto, version, createdAt, updatedAt, written, null);
    }

    /** Its parent in the forest: a row written before parents were kept has only its master, which was its parent. */
    public UUID parent() {
        return mergedInto != null ? mergedInto : masterUid;
    }

    public boolean merged() {
        return masterUid != null;
    }

    /** The same user at its next version, with this root and parent (both null: merged into nobody). */
    public UserRow next(UUID master, UUID parent, Instant at) {
        return new UserRow(uid, master, parent, version + 1, createdAt == null ? at : createdAt, at, 0);
    }
}
