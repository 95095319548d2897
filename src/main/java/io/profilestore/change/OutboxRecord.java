package io.profilestore.change;

import java.util.UUID;

/**
 * A change to announce to the indexer: which entity, the version it has after the change, the fence the change is
 * written with, and whether it erases the entity (then its row is gone once the write landed).
 */
public record OutboxRecord(String entityType, UUID entityId, long version, long fence, boolean erased) {

    public static final String PROFILE = "profile";

    public static OutboxRecord profile(UUID pid, long version, long fence) {
        return new OutboxRecord(PROFILE, pid, version, fence, false);
    }

    public static OutboxRecord profileErased(UUID pid, long version, long fence) {
        return new OutboxRecord(PROFILE, pid, version, fence, true);
    }
}
