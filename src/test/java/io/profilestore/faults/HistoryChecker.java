package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Judges a history against the final state: no acknowledged change lost, versions that follow the order of what
 * did not overlap, erased profiles gone, created ones there, and the outcome of every "unknown" answer resolved
 * one way or the other. A profile's version numbers its changes: each accepted change adds exactly one, so they
 * order the changes of a profile as Cassandra applied them.
 */
final class HistoryChecker {

    /** A profile as Cassandra holds it at the end: its version, user and the id of the write its data came from. */
    record Final(long version, UUID uid, String write) {
    }

    /** What the check found. */
    record Result(long acknowledged, long lost, List<String> violations, long unknown, long unknownApplied,
            long unknownNotApplied) {

        long unknownUnresolved() {
            return unknown - unknownApplied - unknownNotApplied;
        }
    }

    private HistoryChecker() {
    }

    static Result check(List<Event> history, Map<UUID, Final> state) {
        var byPid = new HashMap<UUID, List<Event>>();
        for (var event : history) {
            for (var pid : event.pids()) {
                byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(event);
            }
            for (var pid : event.moved()) {
                byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(event);
            }
        }
        var violations = new ArrayList<String>();
        long lost = 0;
        long unknown = 0;
        long applied = 0;
        long notApplied = 0;
        for (var entry : byPid.entrySet()) {
            var pid = entry.getKey();
            var events = entry.getValue();
            var last = state.get(pid);
            int before = violations.size();
            checkProfile(pid, events, last, violations);
            if (violations.size() > before && violations.subList(before, violations.size()).stream()
                    .anyMatch(v -> v.contains("lost"))) {
                lost++;
            }
            for (var event : events) {
                if (event.isChange() && Event.UNKNOWN.equals(event.outcome()) && event.writes().containsKey(pid)) {
                    unknown++;
                    if (last != null && event.writes().get(pid).equals(last.write())) {
                        applied++;
                    } else if (last != null && event.ifMatch() != null && last.version() == event.ifMatch()) {
                        notApplied++; // the profile is still at the version it replaced
                    } else if (last == null && !mayBeErased(events)) {
                        notApplied++;
                    }
                }
            }
        }
        // a server error is a bug, never an answer: the service says what happened with a problem of its own
        history.stream().filter(e -> e.status() >= 500 && e.status() != 503).forEach(e -> violations.add(
                e.op() + " #" + e.id() + " was answered " + e.status() + " (" + e.problem() + ")"));
        long acknowledged = history.stream().filter(e -> e.isChange() && e.ok()).count();
        return new Result(acknowledged, lost, violations, unknown, applied, notApplied);
    }

    private static void checkProfile(UUID pid, List<Event> events, Final last, List<String> violations) {
        boolean erasedForSure = events.stream().anyMatch(e -> e.op().equals("erase") && e.ok());
        boolean mayBeErased = mayBeErased(events);
        boolean created = events.stream().anyMatch(e -> e.op().equals("create") && e.ok());
        if (last == null) {
            if (!mayBeErased && (created || events.stream().anyMatch(e -> e.ok() && !e.versions().isEmpty()))) {
                violations.add("lost: profile " + pid + " is gone, and no erase of it may have happened");
            }
            return;
        }
        if (erasedForSure) {
            violations.add("profile " + pid + " was erased (acknowledged) and is back at version " + last.version());
        }
        // every version an answer reported is at most the final one: a lower final version lost a change
        long acknowledgedMax = 0;
        Event newestData = null;
        for (var event : events) {
            Long version = event.ok() ? event.versions().get(pid) : null;
            if (version == null) {
                continue;
            }
            acknowledgedMax = Math.max(acknowledgedMax, version);
            if (event.isChange() && event.writes().containsKey(pid)
                    && (newestData == null || version > newestData.versions().get(pid))) {
                newestData = event;
            }
        }
        if (last.version() < acknowledgedMax) {
            violations.add("lost: profile " + pid + " ends at version " + last.version() + ", below the acknowledged "
                    + acknowledgedMax);
        }
        // the final data comes from the newest acknowledged data write, or from one that may have followed it
        var allowed = new HashSet<String>();
        long newestDataVersion = newestData == null ? 0 : newestData.versions().get(pid);
        if (newestData != null) {
            allowed.add(newestData.writes().get(pid));
        }
        for (var event : events) {
            if (event == newestData || !event.writes().containsKey(pid) || !event.mayHaveHappened()) {
                continue;
            }
            Long version = event.ok() ? event.versions().get(pid) : null;
            boolean mayFollow = version != null ? version > newestDataVersion
                    : event.ifMatch() == null || event.ifMatch() >= newestDataVersion;
            if (mayFollow) {
                allowed.add(event.writes().get(pid));
            }
        }
        if (!allowed.isEmpty() && !allowed.contains(last.write())) {
            violations.add("lost: profile " + pid + " holds write " + last.write() + ", not the acknowledged "
                    + (newestData == null ? "-" : newestData.writes().get(pid)) + " (version " + newestDataVersion
                    + ") or one that may have followed it");
        }
        checkOrder(pid, events, violations);
    }

    /** What did not overlap is ordered by version: a change that ended before another began has a lower one. */
    private static void checkOrder(UUID pid, List<Event> events, List<String> violations) {
        var versioned = events.stream().filter(e -> e.ok() && e.versions().get(pid) != null).toList();
        Set<Long> changeVersions = new HashSet<>();
        for (var event : versioned) {
            boolean changedNothing = event.ifMatch() != null && event.ifMatch().equals(event.versions().get(pid));
            if (event.isChange() && !changedNothing && !changeVersions.add(event.versions().get(pid))) {
                violations.add("profile " + pid + ": two acknowledged changes both made version " + event.versions().get(pid));
            }
        }
        for (var a : versioned) {
            for (var b : versioned) {
                if (a.end() < b.start() && a.versions().get(pid) > b.versions().get(pid)) {
                    violations.add("profile " + pid + ": " + a.op() + " #" + a.id() + " answered version "
                            + a.versions().get(pid) + " before " + b.op() + " #" + b.id() + " began, which answered "
                            + b.versions().get(pid));
                }
            }
        }
    }

    private static boolean mayBeErased(List<Event> events) {
        return events.stream().anyMatch(e -> e.op().equals("erase") && e.mayHaveHappened());
    }
}
