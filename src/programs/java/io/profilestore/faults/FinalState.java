package io.profilestore.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What the checker compares the history with, as the stores hold it after the run and before check-tables repaired
 * anything: every profile, user and link in Cassandra (QUORUM) with the id of the change that wrote it
 * ({@code written_by}), the merge journal, what the audit trail says was recorded (when each request's change was
 * recorded, and the system's own changes), and every document of the index. {@code repairs}: what the first
 * check-tables pass then found (for the report; the checker judges the state it was found in).
 */
record FinalState(Map<UUID, Profile> profiles, Map<UUID, User> users, Set<Link> links, List<Operation> operations,
        Audit audit, Map<UUID, Document> index, List<String> repairs, Map<UUID, Map<Long, UUID>> versionWriters) {

    /**
     * A state without the writers of earlier versions: only a profile's last version says who made it today. Once
     * every version of a profile is kept (issue 40, {@code profile_version}), {@code versionWriters} holds, per
     * profile, the id of the change that made each version, and the checker holds each choice to all of them.
     */
    FinalState(Map<UUID, Profile> profiles, Map<UUID, User> users, Set<Link> links, List<Operation> operations,
            Audit audit, Map<UUID, Document> index, List<String> repairs) {
        this(profiles, users, links, operations, audit, index, repairs, Map.of());
    }

    /**
     * A profile row: its version, its user, its own user (home), the write id and first name of its data, and the id of
     * the change that made its version (null: none recorded).
     */
    record Profile(long version, UUID uid, UUID home, String write, String firstName, UUID writer) {
    }

    /** A user row: the root of its tree and its parent (both null: merged into nobody), and who wrote it. */
    record User(UUID master, UUID parent, UUID writer) {
    }

    /** A row of uid_pid: the user lists the profile; who wrote it. */
    record Link(UUID uid, UUID pid, UUID writer) {
    }

    /**
     * A merge or unmerge the journal holds: the request that recorded it, its state, {@code recordedAt} and
     * {@code finishedAt} in nanoseconds since the run began, as the history's times (finishedAt: null while pending);
     * {@code moves} what it moved, each at the version it gave.
     */
    record Operation(UUID opId, UUID requestId, String kind, UUID target, List<UUID> sources, UUID mergeId, String state,
            long recordedAt, Long finishedAt, Map<UUID, Move> moves) {

        boolean applied() {
            return "applied".equals(state);
        }
    }

    /** A profile a merge or unmerge moved: from which user to which, its home then, and the version it gave. */
    record Move(UUID from, UUID home, UUID to, long version) {
    }

    /**
     * What the audit trail says: when each request's change was recorded (ns since the run began; a change is
     * recorded before Cassandra is written, so a request with no record changed nothing), and the system's own
     * changes (null when the trail was not read: a request without a record may have changed something then).
     */
    record Audit(Map<UUID, Long> recordedAt, List<SystemChange> systemChanges) {

        static final Audit UNREAD = new Audit(null, List.of());
    }

    /** A change the system made on its own (check-tables, say): its job, the id its rows carry, its profiles, when. */
    record SystemChange(String job, UUID writer, List<UUID> pids, long at) {
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
