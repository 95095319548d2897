package io.profilestore.db;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code profile}: the document as compact JSON text, and {@code written}, the write timestamp of the row
 * in microseconds (the fence of the change that wrote it; it only grows, and the index uses it as external
 * version).
 */
public record ProfileRow(UUID pid, UUID uid, long version, String data, Instant createdAt, Instant updatedAt,
        long written) {
}
