package io.profilestore.db;

import java.util.UUID;

/** A change to announce to the indexer: which entity, and the version it has after the change. */
public record OutboxRecord(String entityType, UUID entityId, long version) {

    public static final String PROFILE = "profile";

    public static OutboxRecord profile(UUID pid, long version) {
        return new OutboxRecord(PROFILE, pid, version);
    }
}
