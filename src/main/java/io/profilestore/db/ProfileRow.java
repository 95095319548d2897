package io.profilestore.db;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code profile}: the document as compact JSON text, and {@code written}, the write timestamp of the row
 * in microseconds (the fence of the change that wrote it; it only grows, and the index uses it as external
 * version).
 *
 * <p>{@code uid} is the user the profile is under now: the root of its home's merge tree. {@code home} is the user
 * it belongs to in its own right (created under it, or moved to it by hand); merges and unmerges never change it,
 * which is how an unmerge knows what to take back. A row written before homes were kept has none
 * ({@link #recordedHome()} is null): until a move by hand gives it one, it is written back without one, and an
 * unmerge takes its home from the merge's journal, which knew where it came from.
 */
public record ProfileRow(UUID pid, UUID uid, UUID home, long version, String data, Instant createdAt,
        Instant updatedAt, long written) {

    /** Its home: the one recorded, or (a row from before homes were kept) the user it is under. */
    @Override
    public UUID home() {
        return home != null ? home : uid;
    }

    /** The home as the row holds it: null in a row from before homes were kept. */
    public UUID recordedHome() {
        return home;
    }

    /** The same profile, under another user and at another version, written at {@code at} with {@code fence}. */
    public ProfileRow under(UUID user, long nextVersion, Instant at, long fence) {
        return new ProfileRow(pid, user, home, nextVersion, data, createdAt, at, fence);
    }
}
