package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.Instant;
import java.util.UUID;

/** A profile on the wire; {@code data} is the stored JSON document, sent as it is. */
public record Profile(UUID pid, UUID uid, long version, @JsonRawValue String data, Instant createdAt,
        Instant updatedAt) {
}
