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
 * one it gave it, then the operation's event goes, then each of those profiles is marked through it. Nothing is sent
 * that the history does not hold; the marks are written by the caller once the events are confirmed.
 */
final class StreamBatch {

    /** The newest versions read of a profile at once: far more than changes between two of its events. */
    static final int READ = 1000;

    private final VersionRows versions;
    private final UserJournalHistory journal;
    private final CloudEvents events;
    private final List<ObjectNode> out = new ArrayList<>();
    private final Map<UUID, Long> marks = new LinkedHashMap<>();
    private final Set<UUID> operations = new HashSet<>();

    StreamBatch(VersionRows versions, UserJournalHistory journal, CloudEvents events) {
        this.versions = versions;
        this.journal = journal;
        this.events = events;
    }

    /**
     * Sends what the profile's history holds above its mark; answers the version the stream covers of it now (its
     * mark once this batch is confirmed): the caller's message is done when its version is at or below that.
     */
    long profile(UUID pid) {
        return catchUp(pid, Long.MAX_VALUE);
    }

    /** The events to publish, in order. */
    List<ObjectNode> events() {
        return out;
    }

    /** The marks to write once the events are confirmed: each profile's version streamed through. */
    Map<UUID, Long> marks() {
        return marks;
    }

    /** Sends the profile's versions above its mark and below {@code below}; answers its mark then. */
    private long catchUp(UUID pid, long below) {
        var unstreamed = versions.unstreamed(pid, READ);
        long through = Math.max(unstreamed.streamedThrough(), marks.getOrDefault(pid, 0L));
        ProfileRow previous = unstreamed.previous();
        for (var version : unstreamed.versions()) {
            if (version.version() >= below) {
                break;
            }
            if (version.version() > through) {
                send(version, previous);
                through = Math.max(through, marks.getOrDefault(pid, 0L));
                through = Math.max(through, version.version());
                marks.merge(pid, through, Math::max);
            }
            previous = version;
        }
        return through;
    }

    private void send(ProfileRow version, ProfileRow previous) {
        var kind = version.kind();
        if (kind == VersionKind.UNRECORDED) {
            return; // made before the stream (or the history) was: not a change the stream tells
        }
        if (kind == VersionKind.MERGED || kind == VersionKind.UNMERGED) {
            var operation = journal.movedBy(version.pid(), version.version());
            if (operation.isPresent()) {
                if (operations.add(operation.get().opId())) {
                    sendOperation(operation.get(), version);
                }
                return;
            }
            // the journal no longer knows it: told as the profile's own move
        }
        out.add(events.profile(version, previous != null && previous.version() == version.version() - 1 ? previous : null));
    }

    /**
     * A merge or unmerge, once: every profile it moved is brought up to the version before the one it gave it (so that
     * no event of the operation comes before one of a change it followed), then the operation's event, then the marks.
     */
    private void sendOperation(Moving operation, ProfileRow seen) {
        for (var move : operation.moves()) {
            if (!move.pid().equals(seen.pid())) {
                catchUp(move.pid(), move.version());
            }
        }
        out.add(events.user(operation, seen.updatedAt()));
        for (var move : operation.moves()) {
            marks.merge(move.pid(), move.version(), Math::max);
        }
    }
}
