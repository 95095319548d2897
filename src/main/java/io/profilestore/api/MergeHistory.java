package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@code GET /v1/users/{uid}/merges}: the merges into or of the users of {@code uid}'s tree, newest first, each with
 * what it moved and, per source undone, what its unmerge moved back; {@code pids}, the profiles under the tree's
 * root now. Ids and times only.
 */
public record MergeHistory(UUID uid, List<UUID> pids, List<Merge> merges) {

    /** A merge: {@code state} applied or pending (interrupted, being completed); {@code moved} by the source they came from. */
    public record Merge(UUID mergeId, UUID target, List<UUID> sources, String state, Instant recordedAt,
            Map<UUID, List<UUID>> moved, List<Undo> undone) {
    }

    /** The unmerge of one source: what it moved back to the source. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Undo(UUID source, UUID unmergeId, String state, Instant recordedAt, List<UUID> restored) {
    }

    /** Every pid the history names: the person an operator who reads it has looked up. */
    public List<UUID> shown() {
        return Stream.concat(pids.stream(), merges.stream().flatMap(merge -> Stream.concat(
                merge.moved().values().stream().flatMap(List::stream),
                merge.undone().stream().flatMap(undo -> undo.restored().stream())))).distinct().toList();
    }
}
