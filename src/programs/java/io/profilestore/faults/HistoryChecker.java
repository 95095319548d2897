package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Judges a history against the final state: no acknowledged change lost, versions that follow the order of what did
 * not overlap, erased profiles gone, created ones there, no profile nobody made; every "outcome unknown" resolved
 * ({@link UnknownOutcomes}); every profile's user and every user's parent explained ({@link UsersCheck}); what
 * check-tables repaired explained ({@link RepairsCheck}). A profile's version numbers its changes: each accepted
 * change adds exactly one, so they order the changes of a profile as Cassandra applied them.
 */
final class HistoryChecker {

    /** Unknown answers: how many, how many resolved as applied and as not, and those that could not be resolved. */
    record Unknowns(long total, long applied, long notApplied, long oneOfAGroup, List<String> unresolved,
            Map<String, Long> byOperation) {
    }

    /** What the check found. */
    record Result(long acknowledged, long lost, List<String> violations, Unknowns unknowns, long repairsExplained,
            long repairs) {
    }

    private HistoryChecker() {
    }

    /**
     * @param before the state as the run left it
     * @param after  the state once check-tables repaired what it found ({@code after.repairs()}: its first pass's findings)
     */
    static Result check(List<Event> history, FinalState before, FinalState after) {
        var violations = new ArrayList<String>();
        var resolved = UnknownOutcomes.resolve(history, before);
        var byPid = new HashMap<UUID, List<Event>>();
        for (var event : history) {
            var pids = new HashSet<UUID>(event.pids());
            pids.addAll(event.moved());
            pids.addAll(event.versions().keySet());
            pids.forEach(pid -> byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(event));
        }
        resolved.createdBy().forEach((pid, create) -> byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(create));
        // the versions the journal's applied merges and unmerges gave (the recovery's too, which no answer names)
        var journaled = new HashMap<UUID, Set<Long>>();
        before.operations().stream().filter(operation -> "applied".equals(operation.state())).forEach(operation ->
                operation.versions().forEach((pid, version) -> journaled.computeIfAbsent(pid, p -> new HashSet<>()).add(version)));
        long lost = 0;
        for (var entry : byPid.entrySet()) {
            int was = violations.size();
            var last = before.profiles().get(entry.getKey());
            checkProfile(entry.getKey(), entry.getValue(), last, resolved, violations);
            if (last != null) {
                checkVersionsMade(entry.getKey(), entry.getValue(), last, resolved,
                        journaled.getOrDefault(entry.getKey(), Set.of()), violations);
            }
            if (violations.subList(was, violations.size()).stream().anyMatch(v -> v.startsWith("lost"))) {
                lost++;
            }
        }
        before.profiles().keySet().stream().filter(pid -> !byPid.containsKey(pid)).forEach(pid -> violations.add(
                "profile " + pid + " is in Cassandra, but no answer named it and no create without an answer made it"));
        UsersCheck.check(history, before, after, resolved, violations);
        // a server error is a bug, never an answer: the service says what happened with a problem of its own
        history.stream().filter(e -> e.status() >= 500 && e.status() != 503).forEach(e -> violations.add(
                e.op() + " #" + e.id() + " was answered " + e.status() + " (" + e.problem() + ")"));
        var unresolved = resolved.unresolved().stream().map(e -> "unresolved: " + e.op() + " #" + e.id() + " of "
                + (e.pids().isEmpty() ? "user " + e.uid() : "profile " + e.pids().get(0))
                + " answered 'outcome unknown', and the final state does not tell whether it happened").toList();
        violations.addAll(unresolved);
        resolved.halfApplied().forEach(e -> violations.add("half a batch: " + e.op() + " #" + e.id() + " answered"
                + " 'outcome unknown', and stands on some of its profiles but not on the others " + e.expected().keySet()));
        long explained = RepairsCheck.explain(after.repairs(), history, resolved, violations);
        var byOperation = new TreeMap<String, Long>();
        history.stream().filter(Event::unknown).forEach(e -> byOperation.merge(e.op(), 1L, Long::sum));
        long applied = resolved.applied().values().stream().filter(Boolean::booleanValue).count();
        var unknowns = new Unknowns(byOperation.values().stream().mapToLong(Long::longValue).sum(), applied,
                resolved.applied().size() - applied, resolved.oneOf().stream().mapToLong(g -> g.events().size()).sum(),
                unresolved, byOperation);
        long acknowledged = history.stream().filter(e -> e.isChange() && e.ok()).count();
        return new Result(acknowledged, lost, violations, unknowns, explained, after.repairs().size());
    }

    private static void checkProfile(UUID pid, List<Event> events, FinalState.Profile last,
            UnknownOutcomes.Resolution resolved, List<String> violations) {
        boolean erasedForSure = events.stream().anyMatch(e -> e.op().equals("erase") && e.ok());
        boolean mayBeErased = events.stream().anyMatch(e -> e.op().equals("erase") && e.mayHaveHappened());
        boolean created = events.stream().anyMatch(e -> e.op().equals("create") && resolved.happened(e));
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
        // the final data comes from the newest acknowledged data write, or from one that happened after it
        var allowed = new HashSet<String>();
        long newestDataVersion = newestData == null ? 0 : newestData.versions().get(pid);
        if (newestData != null) {
            allowed.add(newestData.writes().get(pid));
        }
        for (var event : events) {
            if (event == newestData || !event.writes().containsKey(pid)
                    || !resolved.happened(event) && !resolved.oneOfAGroup(event)) {
                continue;
            }
            Long version = event.ok() ? event.versions().get(pid) : null;
            Long replaced = event.replaces(pid);
            boolean mayFollow = version != null ? version > newestDataVersion
                    : replaced == null || replaced >= newestDataVersion;
            if (mayFollow) {
                allowed.add(event.writes().get(pid));
            }
        }
        if (!allowed.isEmpty() && !allowed.contains(last.write())) {
            violations.add("lost: profile " + pid + " holds write " + last.write() + ", not the acknowledged "
                    + (newestData == null ? "-" : newestData.writes().get(pid)) + " (version " + newestDataVersion
                    + ") or one that happened after it");
        }
        checkOrder(pid, events, violations);
    }

    /**
     * Every version up to the final one was made by a change that happened: one whose answer gave it, one whose
     * unknown outcome resolved as applied (the version after the one it replaced), one of a group of which exactly
     * one happened, or a merge or unmerge the journal holds as applied. A version nothing made is a change counted twice, or one the history never saw.
     */
    private static void checkVersionsMade(UUID pid, List<Event> events, FinalState.Profile last,
            UnknownOutcomes.Resolution resolved, Set<Long> journaled, List<String> violations) {
        var made = new HashSet<>(journaled);
        resolved.oneOf().stream().filter(group -> group.pid().equals(pid)).forEach(group -> made.add(group.made()));
        for (var event : events) {
            if (!event.isChange() || !resolved.happened(event)) {
                continue;
            }
            if (event.op().equals("create")) {
                made.add(1L);
            }
            if (event.ok() && event.versions().containsKey(pid)) {
                made.add(event.versions().get(pid));
            } else if (event.unknown() && event.replaces(pid) != null) {
                made.add(event.replaces(pid) + 1);
            }
        }
        var gaps = new ArrayList<Long>();
        for (long version = 1; version <= last.version(); version++) {
            if (!made.contains(version)) {
                gaps.add(version);
            }
        }
        if (!gaps.isEmpty()) {
            violations.add("version gap: profile " + pid + " is at version " + last.version() + ", but no change that"
                    + " happened made versions " + gaps);
        }
    }

    /** What did not overlap is ordered by version: a change that ended before another began has a lower one. */
    private static void checkOrder(UUID pid, List<Event> events, List<String> violations) {
        var versioned = events.stream().filter(e -> e.ok() && e.versions().get(pid) != null).toList();
        Set<Long> changeVersions = new HashSet<>();
        for (var event : versioned) {
            Long replaced = event.replaces(pid);
            boolean changedNothing = replaced != null && replaced.equals(event.versions().get(pid));
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
}
