package io.profilestore.faults;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A change that may have happened, as the checker models it: one request of the history (its answer ok, or no answer
 * that says what became of it), or a change the system made on its own (a check-tables repair). Its read point (when
 * it held its locks and read what it replaces) lies in {@code [readFrom, readUntil]}; its writes become visible (land)
 * at a point after that and at most {@code landUntil}. For each profile it writes, its {@link Slot}: the version it
 * makes and what it changes. An acknowledged change landed before its answer and made every version it reports (no
 * other holder of its locks came between its read and its landing; a late write of one that lost them may have); one
 * whose outcome is unknown may have landed much later (a paused writer, a batch replayed from a batchlog), or never,
 * and may lose a profile's row to a newer write.
 */
final class Op {

    enum Kind { CREATE, PUT, PATCH, BATCH, ERASE, MOVE, MERGE, UNMERGE, REPAIR }

    /** The end of time: no bound. */
    static final long OPEN = Long.MAX_VALUE / 4;

    /**
     * What the change does to a profile: the version it makes (0: whichever comes next, for a repair), the user and
     * home it gives (null: as they were), the data's write id (null: as it was), and, for a merge or unmerge, the user
     * it takes the profile from (who the profile was under when it read).
     */
    record Slot(long version, UUID uid, UUID home, String data, UUID from, boolean erase) {

        /** The version it replaces: the one it read. */
        long replaces() {
            return version - 1;
        }
    }

    final Event event;
    final Kind kind;
    final UUID writer;
    /** Answered ok: it happened, at its read point, whole. */
    final boolean acked;
    /** The journal holds it applied (a merge or unmerge): its user rows were written, whatever its profiles' rows did. */
    final boolean journaled;
    /**
     * When it read for the last time: its request's read point, or, for a merge or unmerge the recovery completed,
     * the completion's (which must have found every profile it was to take).
     */
    final long lastReadFrom;
    final long lastReadUntil;
    /** Ruled out: no audit record, or the journal abandoned it, or it names nothing that exists. */
    final boolean impossible;
    /** A batch: all its profiles or none (a half batch is a violation). */
    final boolean allOrNothing;
    final long readFrom;
    final long readUntil;
    final long landUntil;
    final Map<UUID, Slot> slots;
    /** For a merge or unmerge: the journal's operation; null otherwise. */
    final FinalState.Operation operation;

    Op(Event event, Kind kind, UUID writer, boolean acked, boolean journaled, boolean impossible, long readFrom,
            long readUntil, long landUntil, Map<UUID, Slot> slots, FinalState.Operation operation) {
        this(event, kind, writer, acked, journaled, impossible, readFrom, readUntil, landUntil, slots, operation, readFrom,
                readUntil);
    }

    Op(Event event, Kind kind, UUID writer, boolean acked, boolean journaled, boolean impossible, long readFrom,
            long readUntil, long landUntil, Map<UUID, Slot> slots, FinalState.Operation operation, long lastReadFrom,
            long lastReadUntil) {
        this.event = event;
        this.kind = kind;
        this.writer = writer;
        this.acked = acked;
        this.journaled = journaled;
        this.impossible = impossible;
        this.allOrNothing = kind == Kind.BATCH;
        this.readFrom = readFrom;
        this.readUntil = Math.max(readFrom, readUntil);
        this.landUntil = Math.max(this.readUntil, landUntil);
        this.slots = new LinkedHashMap<>(slots);
        this.operation = operation;
        this.lastReadFrom = lastReadFrom;
        this.lastReadUntil = Math.max(lastReadFrom, lastReadUntil);
    }


    /** A short name for reports: the request's kind and id in the history, or the system's job. */
    String name() {
        return event == null ? kind.name().toLowerCase() + " " + writer
                : (operation == null && (kind == Kind.MERGE || kind == Kind.UNMERGE) ? "the completion of " : "")
                        + event.op() + " #" + event.id();
    }

    @Override
    public String toString() {
        return name();
    }
}
