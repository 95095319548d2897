package io.profilestore.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A message of {@code profile.events}: which entity changed, to which version, with which fence (the change's
 * Cassandra write timestamp), when the change was recorded, whether it erases the entity, and until when its
 * writer's lease lasts (the write lands before then, or has failed or been superseded). Keys and versions only,
 * never the document: the indexer reads what Cassandra holds.
 */
public record ChangeEvent(String entityType, UUID entityId, long version, Long fence, Instant recordedAt,
        boolean erased, Instant leaseUntil) {

    public ChangeEvent(String entityType, UUID entityId, long version, Long fence, Instant recordedAt) {
        this(entityType, entityId, version, fence, recordedAt, false, null);
    }
}
