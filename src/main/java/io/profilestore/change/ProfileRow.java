package io.profilestore.change;

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
 *
 * <p>{@code writtenBy} is the id of the change that made this version (its {@code written_by}). A row built by the
 * change being written has none yet: {@link ProfileRows#apply} gives it the change's. A row read keeps its own, so
 * that writing it again as it stands (above a late batch's fence, say) does not claim its version for the rewriter;
 * a row from before the column (or an import's) reads as {@link #NO_WRITER}.
 */
public record ProfileRow(UUID pid, UUID uid, UUID home, long version, String data, Instant createdAt,
        Instant updatedAt, long written, UUID writtenBy) {

    /** The writer of a row that names none: written before {@code written_by} was kept, or imported. */
    public static final UUID NO_WRITER = new UUID(0, 0);

    /** A version this change makes: its writer is the change's, given when it is written. */
    public ProfileRow(UUID pid, UUID uid, UUID home, long version, String data, Instant createdAt, Instant updatedAt,
            long written) {
        this(pid, uid, home, version, data, createdAt, updatedAt, written, null);
    }

    /** Its home: the one recorded, or (a row from before homes were kept) the user it is under. */
    @Override
    public UUID home() {
        return home != null ? home : uid;
    }

    /** The home as the row holds it: null in a row from before homes were kept. */
    public UUID recordedHome() {
        return home;
    }

    /**
     * The same profile, under another user and at another version, written at {@code at} with {@code fence}: a version
     * of the change that writes it.
     */
    public ProfileRow under(UUID user, long nextVersion, Instant at, long fence) {
        return new ProfileRow(pid, user, home, nextVersion, data, createdAt, at, fence);
    }
}
