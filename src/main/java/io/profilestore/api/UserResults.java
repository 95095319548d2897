package io.profilestore.api;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the user operations answer. */
public final class UserResults {

    private UserResults() {
    }

    /** A merge: its id (to undo it by) and the pids it moved, by the user they came from. */
    public record Merged(UUID mergeId, UUID uid, Map<UUID, List<UUID>> moved) {
    }

    /** An unmerge: the pids returned to each source, and those left where they are, with why. */
    public record Unmerged(UUID mergeId, UUID uid, Map<UUID, List<UUID>> restored, List<Skipped> skipped) {
    }

    public record Skipped(UUID pid, String reason) {
    }
}
