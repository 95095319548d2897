package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What the user operations answer. */
public final class UserResults {

    private UserResults() {
    }

    /**
     * A merge: its id (to undo it by), the pids it moved by the user they came from, and the version each moved
     * profile is at now (its next {@code If-Match}).
     */
    public record Merged(UUID mergeId, UUID uid, Map<UUID, List<UUID>> moved, Map<UUID, Long> versions) {
    }

    /**
     * An unmerge: the merge it undid and its own id (the merge history lists it under that), the pids returned to
     * each source, those of the merge left where they are (with why), and the version each returned profile is at now.
     */
    public record Unmerged(UUID mergeId, UUID unmergeId, UUID uid, Map<UUID, List<UUID>> restored,
            List<Skipped> skipped, Map<UUID, Long> versions) {
    }

    /** A profile an unmerge left where it is: {@code reason} says why, and {@code uid} where it is (erased: none). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Skipped(UUID pid, String reason, UUID uid) {
    }
}
