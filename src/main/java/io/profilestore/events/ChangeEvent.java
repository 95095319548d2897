package io.profilestore.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A message of {@code profile.events}: which entity changed, to which version, with which fence (the change's
 * Cassandra write timestamp), and when the change was recorded. Keys and versions only, never the document: the
 * indexer reads what Cassandra holds.
 */
public record ChangeEvent(String entityType, UUID entityId, long version, Long fence, Instant recordedAt) {
}
