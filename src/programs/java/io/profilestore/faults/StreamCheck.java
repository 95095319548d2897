package io.profilestore.faults;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The change stream judged against Cassandra's history and against the workload's acknowledged changes
 * (docs/change-stream.md, "What is promised"): every version the history holds has its event (a profile's own, or the
 * merge's or unmerge's that moved it), each profile's versions arrive in version order, and no event names a version
 * the history does not hold; and every change the service acknowledged is told, as what it was (a put as replaced, a
 * merge in the merge's event), at the version its answer gave. Repeats are at-least-once delivery: only each id's first
 * arrival is judged, and a later arrival of an id seen is no fault.
 */
final class StreamCheck {

    /** A version the history holds: its pid, number and kind. */
    record Version(UUID pid, long version, String kind) {
    }

    /**
     * What the check found: the events read, the versions judged, each kind of fault, the acknowledged changes judged,
     * and those the stream does not tell as they were acknowledged.
     */
    record Result(long events, long versions, List<String> missing, List<String> outOfOrder, List<String> phantom,
            long acknowledged, List<String> untold) {

        Result(long events, long versions, List<String> missing, List<String> outOfOrder, List<String> phantom) {
            this(events, versions, missing, outOfOrder, phantom, 0, List.of());
        }

        List<String> violations() {
            var all = new ArrayList<String>();
            missing.forEach(v -> all.add("stream: no event for " + v));
            outOfOrder.forEach(v -> all.add("stream: out of order: " + v));
            phantom.forEach(v -> all.add("stream: an event for a version the history does not hold: " + v));
            untold.forEach(v -> all.add("stream: an acknowledged change not told as it was: " + v));
            return all;
        }

        String line() {
            return "stream: " + events + " events for " + versions + " versions, " + missing.size() + " missing, "
                    + outOfOrder.size() + " out of order, " + phantom.size() + " for changes that did not happen; "
                    + acknowledged + " acknowledged changes, " + untold.size() + " not told as they were";
        }

        /** The same, with the acknowledged changes judged too. */
        Result withAcknowledged(long judged, List<String> notTold) {
            return new Result(events, versions, missing, outOfOrder, phantom, judged, notTold);
        }
    }

    /**
     * Judges the acknowledged changes of the workload's history against the events: each (profile, version) an ok
     * answer gave (an erase's is the version after its If-Match) must be told by an event of its kind: a profile's
     * event whose {@code kind} is the change's, or the merge's or unmerge's event that names the profile at that version.
     */
    static Result acknowledged(Result judged, List<Event> history, List<JsonNode> events) {
        var told = new HashMap<String, String>();
        var first = new LinkedHashMap<String, JsonNode>();
        events.forEach(event -> first.putIfAbsent(event.path("id").asText(), event));
        for (var event : first.values()) {
            String type = event.path("type").asText();
            for (var version : versionsOf(event)) {
                told.putIfAbsent(version.pid() + ":" + version.version(), type.startsWith("io.profilestore.user.")
                        ? type.substring("io.profilestore.user.".length()) : event.path("data").path("kind").asText());
            }
        }
        long count = 0;
        var untold = new ArrayList<String>();
        for (var change : history) {
            if (!change.ok() || !change.isChange()) {
                continue;
            }
            String kind = KINDS.get(change.op());
            if (kind == null) {
                continue;
            }
            var versions = new HashMap<>(change.versions());
            if (change.op().equals("erase") && change.ifMatch() != null) {
                change.pids().forEach(pid -> versions.put(pid, change.ifMatch() + 1));
            }
            for (var version : versions.entrySet()) {
                // a change that changed nothing (a move to where the profile is) answers the version it found, which
                // another change made: only a version the change made is its to be told
                Long replaced = change.replaces(version.getKey());
                if (replaced != null && version.getValue() != replaced + 1) {
                    continue;
                }
                count++;
                String key = version.getKey() + ":" + version.getValue();
                String as = told.get(key);
                if (as == null) {
                    untold.add(change.op() + " #" + change.id() + " of " + key + ": no event");
                } else if (!as.equals(kind)) {
                    untold.add(change.op() + " #" + change.id() + " of " + key + ": told as " + as);
                }
            }
        }
        return judged.withAcknowledged(count, untold);
    }

    /** The workload's changes and what the stream calls each: a profile's kind, or the user event's. */
    private static final Map<String, String> KINDS = Map.of("create", "created", "put", "replaced", "patch", "patched",
            "batchUpdate", "batchUpdated", "erase", "erased", "move", "moved", "merge", "merged", "unmerge", "unmerged");

    private StreamCheck() {
    }

    static Result check(Collection<Version> history, List<JsonNode> events) {
        var held = new HashMap<UUID, Map<Long, String>>();
        history.forEach(v -> held.computeIfAbsent(v.pid(), pid -> new HashMap<>()).put(v.version(), v.kind()));
        var first = new LinkedHashMap<String, JsonNode>();
        events.forEach(event -> first.putIfAbsent(event.path("id").asText(), event));
        var covered = new HashSet<String>();
        var last = new HashMap<UUID, Long>();
        var outOfOrder = new ArrayList<String>();
        var phantom = new ArrayList<String>();
        for (var event : first.values()) {
            for (var told : versionsOf(event)) {
                var kinds = held.get(told.pid());
                if (kinds == null || !kinds.containsKey(told.version())) {
                    phantom.add(event.path("id").asText() + " (" + told.pid() + " version " + told.version() + ")");
                    continue;
                }
                covered.add(told.pid() + ":" + told.version());
                Long before = last.put(told.pid(), Math.max(told.version(), last.getOrDefault(told.pid(), 0L)));
                if (before != null && before >= told.version()) {
                    outOfOrder.add(told.pid() + " version " + told.version() + " after version " + before);
                }
            }
        }
        var missing = new ArrayList<String>();
        long judged = 0;
        for (var version : history) {
            if ("unrecorded".equals(version.kind())) {
                continue; // made before the stream was: not told
            }
            judged++;
            if (!covered.contains(version.pid() + ":" + version.version())) {
                missing.add(version.pid() + " version " + version.version() + " (" + version.kind() + ")");
            }
        }
        return new Result(first.size(), judged, missing, outOfOrder, phantom);
    }

    /** The versions an event tells: a profile's one, or each profile a merge or unmerge moved. */
    private static List<Version> versionsOf(JsonNode event) {
        var data = event.path("data");
        var told = new ArrayList<Version>();
        if (event.path("type").asText().startsWith("io.profilestore.user.")) {
            for (var moved : data.path("profiles")) {
                told.add(new Version(UUID.fromString(moved.path("pid").asText()), moved.path("version").asLong(), null));
            }
        } else {
            told.add(new Version(UUID.fromString(data.path("pid").asText()), data.path("version").asLong(), null));
        }
        return told;
    }

    /** Whether every version of the history (but unrecorded ones) is told by some event read so far. */
    static boolean complete(Collection<Version> history, List<JsonNode> events) {
        return check(history, events).missing().isEmpty();
    }
}
