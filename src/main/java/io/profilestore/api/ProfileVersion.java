package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import java.time.Instant;
import java.util.UUID;

/**
 * One version of a profile as its history keeps it: what made it ({@code kind}: created, replaced, patched, batchUpdated,
 * moved, merged, unmerged, erased, imported, or unrecorded for a version from before kinds were kept), when, the user
 * it was under, and the document it held (none for an erase). {@code changedBy} is the Request-Id of the change that
 * made it, which its audit record names with who made it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProfileVersion(UUID pid, long version, String kind, Instant changedAt, UUID uid, @JsonRawValue String data,
        UUID changedBy) {
}
