package io.profilestore.change;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The history of profiles as the API reads it ({@code profile_version}, written by {@link ProfileRows#apply} with each
 * change): every version kept, newest first. A version is a {@link ProfileRow} (an erase's has no data); a version
 * past its retention is gone. The port {@code cassandra.VersionDao} implements on Cassandra.
 */
public interface VersionRows {

    /** Up to {@code limit} versions of the profile below {@code below} (all: {@link Long#MAX_VALUE}), newest first. */
    List<ProfileRow> versions(UUID pid, long below, int limit);

    /** One version of the profile, if it is kept. */
    Optional<ProfileRow> version(UUID pid, long version);

    /** The version current at {@code at}: the newest made at or before it (an erase's, when it was erased then). */
    Optional<ProfileRow> asOf(UUID pid, Instant at);

    /**
     * What the change stream has yet to publish of a profile: the version it published through (0: none), the newest
     * version at or below that one if it is still kept (null: none), and the versions above it, oldest first.
     */
    record Unstreamed(long streamedThrough, ProfileRow previous, List<ProfileRow> versions) {
    }

    /** {@link Unstreamed} of the profile, reading at most {@code limit} of its newest versions. */
    Unstreamed unstreamed(UUID pid, int limit);

    /**
     * The change stream published the profile's versions through this one, whose write time is {@code written}: the mark
     * is written at that time, so that it never outlives what a later change (a purge) wrote above it, and of two marks
     * the one of the newer version stands.
     */
    void streamedThrough(UUID pid, long version, long written);
}
