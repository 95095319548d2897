package io.profilestore.faults;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What the checker compares the history with, as the stores hold it after the run: every profile and user in
 * Cassandra (QUORUM), the merge journal, every document of the index, and what the first check-tables pass found.
 */
record FinalState(Map<UUID, Profile> profiles, Map<UUID, User> users, List<Operation> operations,
        Map<UUID, Document> index, List<String> repairs) {

    /** A profile row: its version, its user, its own user (home), and the write id and first name of its data. */
    record Profile(long version, UUID uid, UUID home, String write, String firstName) {
    }

    /** A user row: the root of its tree and its parent (both null: merged into nobody). */
    record User(UUID master, UUID parent) {
    }

    /**
     * A merge or unmerge the journal holds: {@code recordedAt} in nanoseconds since the run began, as the history's
     * times; {@code versions} the version it gave each profile it moved.
     */
    record Operation(UUID opId, String kind, UUID target, List<UUID> sources, UUID mergeId, String state,
            long recordedAt, Map<UUID, Long> versions) {
    }

    /** An index document: what search shows of the profile. */
    record Document(long version, UUID uid, String firstName) {
    }

    /** The root of a user's tree as the rows say: itself when merged into nobody, null when it has no row. */
    UUID root(UUID uid) {
        var user = users.get(uid);
        return user == null ? null : user.master() == null ? uid : user.master();
    }
}
