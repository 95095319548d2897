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
 *
 * <p>{@code kind} is what made this version (a row of the profile's history says the same); null in a row from before
 * kinds were kept ({@link #kind()} answers {@link VersionKind#UNRECORDED} then). A row of the history
 * ({@code profile_version}) is a ProfileRow too; an erase's has no data.
 */
public record ProfileRow(UUID pid, UUID uid, UUID home, long version, String data, Instant createdAt,
        Instant updatedAt, long written, UUID writtenBy, VersionKind kind) {

    /** A row that says nothing of the kind of its version: read from before kinds were kept, or made by a test. */
    public ProfileRow(UUID pid, UUID uid, UUID home, long version, String data, Instant createdAt, Instant updatedAt,
            long written, UUID writtenBy) {
        this(pid, uid, home, version, data, createdAt, updatedAt, written, writtenBy, null);
    }

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

    /** The kind of change that made this version: {@link VersionKind#UNRECORDED} when the row does not say. */
    @Override
    public VersionKind kind() {
        return kind != null ? kind : VersionKind.UNRECORDED;
    }

    /** The kind as the row holds it: null in a row from before kinds were kept. */
    public VersionKind recordedKind() {
        return kind;
    }

    /** The same version, made by a change of this kind. */
    public ProfileRow madeBy(VersionKind madeBy) {
        return new ProfileRow(pid, uid, home, version, data, createdAt, updatedAt, written, writtenBy, madeBy);
    }

    /**
     * The version an erase of this profile makes, at {@code at} with {@code fence}: the next one, holding no data, kept in
     * the history (the profile's row goes).
     */
    public ProfileRow erased(Instant at, long fence) {
        return new ProfileRow(pid, uid, home, version + 1, null, createdAt, at, fence, null, VersionKind.ERASED);
    }

    /** The home as the row holds it: null in a row from before homes were kept. */
    public UUID recordedHome() {
        return home;
    }

    /**
     * The same profile, under another user and at another version, written at {@code at} with {@code fence}: a version
     * the change that writes it makes, of its kind.
     */
    public ProfileRow under(UUID user, long nextVersion, Instant at, long fence, VersionKind madeBy) {
        return new ProfileRow(pid, user, home, nextVersion, data, createdAt, at, fence, null, madeBy);
    }
}
