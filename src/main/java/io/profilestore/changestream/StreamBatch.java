package io.profilestore.changestream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.UserJournalHistory.Moving;
import io.profilestore.change.VersionKind;
import io.profilestore.change.VersionRows;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What one batch of the publisher sends, in order (docs/change-stream.md): for each profile it is told of, every version
 * its history holds above the profile's mark, oldest first, each as the event of its kind. A version a merge or unmerge
 * made is told once for the whole operation: first every profile it moved is brought up to the version before the
 * one it gave it, then the operation's event goes, then each of those profiles is marked through it. An operation still
 * pending is not told yet (it may be abandoned, its versions written away): the profile waits at the version before.
 * Nothing is sent that the history does not hold; the marks are written by the caller once the events are confirmed.
 */
final class StreamBatch {

    /**
     * Every version above the mark is read (a page at a time): a limit would cut the oldest of them off when a profile
     * changed more often than that while the publisher was away, and they would never be told.
     */
    static final int READ = Integer.MAX_VALUE;

    /** A profile's mark: the version told through, and that version's write time (the mark's). */
    record Mark(long version, long written) {
    }

    /** How far a profile is told once the batch is confirmed, and whether a pending operation holds it there. */
    record Covered(long through, boolean held) {
    }

    private final VersionRows versions;
    private final UserJournalHistory journal;
    private final CloudEvents events;
    private final List<ObjectNode> out = new ArrayList<>();
    private final Map<UUID, Mark> marks = new LinkedHashMap<>();
    private final Set<UUID> operations = new HashSet<>();

    StreamBatch(VersionRows versions, UserJournalHistory journal, CloudEvents events) {
        this.versions = versions;
        this.journal = journal;
        this.events = events;
    }

    /** Sends what the profile's history holds above its mark; answers how far that covers it. */
    Covered profile(UUID pid) {
        return catchUp(pid, Long.MAX_VALUE);
    }

    /** The events to publish, in order. */
    List<ObjectNode> events() {
        return out;
    }

    /** The marks to write once the events are confirmed. */
    Map<UUID, Mark> marks() {
        return marks;
    }

    /** Sends the profile's versions above its mark and below {@code below}; answers how far it is covered then. */
    private Covered catchUp(UUID pid, long below) {
        var unstreamed = versions.unstreamed(pid, READ);
        long through = Math.max(unstreamed.streamedThrough(), markOf(pid));
        ProfileRow previous = unstreamed.previous();
        for (var version : unstreamed.versions()) {
            if (version.version() >= below) {
                break;
            }
            if (version.version() > through) {
                if (!send(version, previous)) {
                    return new Covered(through, true);
                }
                mark(pid, version.version(), version.written());
                through = Math.max(through, markOf(pid));
            }
            previous = version;
        }
        return new Covered(through, false);
    }

    /** Sends one version's event (or its operation's); false when a pending operation holds it back. */
    private boolean send(ProfileRow version, ProfileRow previous) {
        var kind = version.kind();
        if (kind == VersionKind.UNRECORDED) {
            return true; // made before the stream (or the history) was: not a change the stream tells
        }
        if (kind == VersionKind.MERGED || kind == VersionKind.UNMERGED) {
            var operation = journal.movedBy(version.pid(), version.version());
            if (operation.isPresent()) {
                if (operation.get().pending()) {
                    return false;
                }
                if (operations.add(operation.get().opId())) {
                    sendOperation(operation.get(), version);
                }
                return true;
            }
            // the journal no longer knows it: told as the profile's own move
        }
        out.add(events.profile(version, previous != null && previous.version() == version.version() - 1 ? previous : null));
        return true;
    }

    /**
     * A merge or unmerge, once: every profile it moved is brought up to the version before the one it gave it (so that
     * no event of the operation comes before one of a change it followed), then the operation's event, then the marks,
     * at the write time of the version seen (the operation wrote all of them at one fence).
     */
    private void sendOperation(Moving operation, ProfileRow seen) {
        // only the moves the history holds as the operation's: the journal may name a version of a profile the
        // operation never gave it (its run interrupted, the profile changed by another request meanwhile)
        var held = operation.moves().stream().filter(move -> move.pid().equals(seen.pid())
                || versions.version(move.pid(), move.version()).filter(version -> version.kind() == seen.kind()
                        && move.to().equals(version.uid())).isPresent()).toList();
        for (var move : held) {
            if (!move.pid().equals(seen.pid())) {
                catchUp(move.pid(), move.version());
            }
        }
        out.add(events.user(new Moving(operation.opId(), operation.kind(), operation.target(), operation.sources(),
                held, operation.pending()), seen.updatedAt()));
        for (var move : held) {
            mark(move.pid(), move.version(), seen.written());
        }
    }

    private long markOf(UUID pid) {
        var mark = marks.get(pid);
        return mark == null ? 0 : mark.version();
    }

    private void mark(UUID pid, long version, long written) {
        marks.merge(pid, new Mark(version, written), (a, b) -> a.version() >= b.version() ? a : b);
    }
}
