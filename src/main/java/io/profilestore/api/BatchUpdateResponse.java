package io.profilestore.api;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The new version of every profile a batch changed. */
public record BatchUpdateResponse(List<Updated> updated) {

    public record Updated(UUID pid, long version, Instant updatedAt) {
    }
}
