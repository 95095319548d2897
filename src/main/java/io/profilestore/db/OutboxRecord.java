package io.profilestore.db;

import java.util.UUID;

/**
 * A change to announce to the indexer: which entity, the version it has after the change, and the fence the change
 * is written with.
 */
public record OutboxRecord(String entityType, UUID entityId, long version, long fence) {

    public static final String PROFILE = "profile";

    public static OutboxRecord profile(UUID pid, long version, long fence) {
        return new OutboxRecord(PROFILE, pid, version, fence);
    }
}
