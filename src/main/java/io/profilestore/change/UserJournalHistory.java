package io.profilestore.change;

import io.profilestore.change.UserJournal.Move;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The merge journal read as history: what the console shows of a user's merges, and what check-tables compares the
 * users' table with ({@link UserJournal} writes it and reads what operations need). The port
 * {@code postgres.PostgresUserJournalHistory} implements.
 */
public interface UserJournalHistory {

    /** A merge as the journal has it, with what it moved and its unmerges. */
    record Recorded(UUID opId, UUID target, List<UUID> sources, String state, Instant recordedAt, List<Move> moves,
            List<Undone> undone) {
    }

    /** The unmerge of one source of a merge, with what it moved back. */
    record Undone(UUID source, UUID unmergeId, String state, Instant recordedAt, List<Move> moves) {
    }

    /** A merge the journal holds as applied and not undone: {@code source} is {@code target}'s. */
    record Edge(UUID source, UUID target) {
    }

    /** The latest merges (abandoned ones aside) into or of any of these users, newest first, at most {@code limit}. */
    List<Recorded> history(Collection<UUID> uids, int limit);

    /** The users these were merged into, as the journal's applied merges less their unmerges say (absent: none). */
    Map<UUID, UUID> parentsInJournal(Collection<UUID> uids);

    /** Every merge the journal holds as applied and not undone, a batch at a time. */
    void activeEdges(int batch, Consumer<List<Edge>> each);

    /**
     * A merge or unmerge as the change stream tells it: its kind, its target and sources, every profile it moved with
     * the version it gave each, and whether it is still pending (completed or abandoned later).
     */
    record Moving(UUID opId, UserJournal.Kind kind, UUID target, List<UUID> sources, List<Move> moves, boolean pending) {
    }

    /** The merge or unmerge that gave the profile this version, if the journal has one (not abandoned). */
    Optional<Moving> movedBy(UUID pid, long version);

    /** Which of these users an interrupted operation still waits on (see {@link #pendingOn}). */
    Set<UUID> pendingUsers(Collection<UUID> uids);
}
