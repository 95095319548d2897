package io.profilestore.db;

import java.time.Instant;
import java.util.UUID;

/** A row of {@code profile}: the document as compact JSON text. */
public record ProfileRow(UUID pid, UUID uid, long version, String data, Instant createdAt, Instant updatedAt) {
}
