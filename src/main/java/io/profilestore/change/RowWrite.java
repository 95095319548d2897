package io.profilestore.change;

import java.time.Instant;
import java.util.UUID;

/**
 * One row a change writes to the Cassandra tables of profiles and users, said in the domain's words: the core decides
 * what to write, {@link ProfileRows#apply} builds the statements. It lives beside {@link ProfileRow} and
 * {@link UserRow}, the rows it writes, so that {@code db} needs nothing of the core.
 */
public sealed interface RowWrite {

    /**
     * A profile's whole row, so that the newest write wins whole; written with its user's link to it ({@code uid_pid},
     * {@link OwnLink}) at the same fence, by {@link ProfileRows#apply}. So the newest write of the row also has the newest word on
     * that link: a late write that loses on the row cannot leave its unlink of the profile from that user standing
     * (a merge finds a user's profiles through the links; issue 38, finding 10).
     */
    record PutProfile(ProfileRow row) implements RowWrite {
    }

    /**
     * A version of a profile goes into its history ({@code profile_version}), with the version it replaces (null: none,
     * a create) written again to expire after the history's retention. The change writes it beside the profile's row (or
     * its erase), at the same fence: a version a late write makes loses wherever its row does.
     */
    record RecordVersion(ProfileRow version, ProfileRow replaced) implements RowWrite {
    }

    /**
     * A version of a profile leaves its history: one that the batch of an abandoned operation may still bring, written
     * away above that batch's fence.
     */
    record ForgetVersion(UUID pid, long version) implements RowWrite {
    }

    /**
     * Every version of a profile below {@code below} leaves its history (the right to erasure), and a late write of one
     * of them, below this write's fence, stays gone. The change writes its own version at {@code below} (kind
     * {@link VersionKind#PURGED}), which keeps the numbering going and tells the change stream.
     */
    record PurgeVersions(UUID pid, long below) implements RowWrite {
    }

    /** A profile's row goes (its place in its user's list is {@link UnlinkProfile}, a write of its own). */
    record EraseProfile(UUID pid) implements RowWrite {
    }

    /** A user's whole row: like profiles, users are always written whole. */
    record PutUser(UserRow user) implements RowWrite {
    }

    /** A new user's row, at version 1 and merged into nobody. */
    record PutNewUser(UUID uid, Instant at) implements RowWrite {
    }

    /** The user lists the profile ({@code uid_pid}). */
    record LinkProfile(UUID uid, UUID pid) implements RowWrite {
    }

    /**
     * A profile row's own link: its user lists it, written with the row at its fence and naming the row's writer (the
     * maker of its version, also when the row is written again as it stood). {@link ProfileRows#apply} adds it.
     */
    record OwnLink(ProfileRow row) implements RowWrite {
    }

    /** The user no longer lists the profile. */
    record UnlinkProfile(UUID uid, UUID pid) implements RowWrite {
    }
}
