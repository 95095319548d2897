package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Resolves every "outcome unknown" answer of every kind from the final state: it happened or it did not. A
 * profile's version numbers its changes (each accepted change adds exactly one), so the question for a change that
 * said it replaces version v is who made version v + 1. The makers known are the acknowledged answers and the merges
 * and unmerges the journal holds as applied, with the version each planned for each profile; reads tell the data a
 * version held. A journal's version weighs less than an answer and than the profile's own user, which a merge never
 * changes: a merge's journal can list a profile that it did not move in the end (its first attempt failed, and its
 * recovery found the profile moved away by hand). The recovery drops such a row when the profile surely left before
 * the first attempt's write (it is at the very version that write would have given it); one changed again since
 * stays, since the write may have landed first, and so do journals written before. A create is found by its write id in the data; a merge or unmerge
 * by the journal. What the evidence cannot settle stays unresolved, and the checker counts that as a violation.
 */
final class UnknownOutcomes {

    /** How each unknown answer was resolved (by event id), what stayed unresolved, and which create made which pid. */
    record Resolution(Map<Long, Boolean> applied, List<Event> unresolved, List<Event> halfApplied,
            List<OneOf> oneOf, Map<UUID, Event> createdBy, Map<Long, FinalState.Operation> operationOf) {

        boolean happened(Event event) {
            return event.ok() || event.unknown() && Boolean.TRUE.equals(applied.get(event.id()));
        }

        /** Whether it is one of a group of which exactly one happened, not told which. */
        boolean oneOfAGroup(Event event) {
            return oneOf.stream().anyMatch(group -> group.events().contains(event));
        }
    }

    /**
     * Unknown changes of a profile's data (puts and patches) that all said they replace the same version, when the
     * next version exists and nothing else made it: exactly one of them made it (each is guarded by that version),
     * and once later writes replaced its data the final state cannot tell which. Which one matters to no invariant
     * (the profile's user and the other profiles are not theirs to change), so the group is settled as such.
     */
    record OneOf(UUID pid, long made, List<Event> events) {
    }

    /** How far the journal's clock and the history's may be apart when an answer names no operation id. */
    private static final long WINDOW = 2_000_000_000L;

    private UnknownOutcomes() {
    }

    static Resolution resolve(List<Event> history, FinalState state) {
        var applied = new HashMap<Long, Boolean>();
        var unresolved = new ArrayList<Event>();
        var halfApplied = new ArrayList<Event>();
        var oneOf = new ArrayList<OneOf>();
        var createdBy = new HashMap<UUID, Event>();
        var operationOf = new HashMap<Long, FinalState.Operation>();
        matchOperations(history, state, operationOf);
        var byWrite = new HashMap<String, UUID>();
        state.profiles().forEach((pid, profile) -> {
            if (profile.write() != null) {
                byWrite.put(profile.write(), pid);
            }
        });
        var chains = new Chains(history, state, operationOf);
        for (var event : history) {
            if (!event.unknown()) {
                continue;
            }
            Boolean outcome = switch (event.op()) {
                case "create" -> {
                    UUID pid = event.pids().isEmpty() ? byWrite.get(event.write()) : event.pids().get(0);
                    if (pid != null && state.profiles().containsKey(pid)) {
                        createdBy.put(pid, event);
                    }
                    // a pid nobody was told of is touched by nothing but merges, which keep its data
                    yield pid != null && (state.profiles().containsKey(pid) || chains.existed(pid, 1));
                }
                case "merge", "unmerge" -> {
                    var operation = operationOf.get(event.id());
                    yield operation == null ? Boolean.FALSE
                            : "applied".equals(operation.state()) ? Boolean.TRUE
                            : "abandoned".equals(operation.state()) ? Boolean.FALSE : null;
                }
                case "erase" -> chains.erased(event);
                case "put", "patch", "move" -> chains.made(event, event.pids().get(0));
                case "batchUpdate" -> {
                    // all or nothing: any profile that settles it settles the batch
                    Boolean batch = null;
                    for (var pid : event.expected().keySet()) {
                        Boolean one = chains.made(event, pid);
                        if (one != null && batch != null && !one.equals(batch)) {
                            halfApplied.add(event); // worse than unknown, and reported as such
                            batch = null;
                            break;
                        }
                        batch = one != null ? one : batch;
                    }
                    yield batch;
                }
                default -> Boolean.FALSE;
            };
            if (outcome == null && oneOf.stream().anyMatch(group -> group.events().contains(event))) {
                continue;
            }
            var group = outcome == null ? chains.oneOf(event) : null;
            if (group != null) {
                oneOf.add(group);
            } else if (outcome == null) {
                if (!halfApplied.contains(event)) {
                    unresolved.add(event);
                }
            } else {
                applied.put(event.id(), outcome);
            }
        }
        settleByOthers(chains, applied, unresolved, halfApplied);
        return new Resolution(applied, unresolved, halfApplied, oneOf, createdBy, operationOf);
    }

    /**
     * What the first pass left unresolved, looked at again with what it settled, until nothing more settles: only one
     * change can replace a version (each is checked against it under the lock), so another change that replaced the
     * same version and happened (an erase too, or a batch settled on another of its profiles) means this one did
     * not; and when all the others did not and the next version existed, this one made it.
     */
    private static void settleByOthers(Chains chains, Map<Long, Boolean> applied, List<Event> unresolved,
            List<Event> halfApplied) {
        boolean settledOne = true;
        while (settledOne) {
            settledOne = false;
            for (var event : List.copyOf(unresolved)) {
                Boolean outcome = null;
                for (var pid : event.expected().isEmpty() ? event.pids() : event.expected().keySet()) {
                    Boolean one = chains.settledByOthers(event, pid, applied);
                    if (one != null && outcome != null && !one.equals(outcome)) {
                        halfApplied.add(event);
                        unresolved.remove(event);
                        outcome = null;
                        break;
                    }
                    outcome = one != null ? one : outcome;
                }
                if (outcome != null) {
                    unresolved.remove(event);
                    applied.put(event.id(), outcome);
                    settledOne = true;
                }
            }
        }
    }

    /**
     * Each merge and unmerge answer with the journal's operation: by the id its answer gave, else the operation of
     * its kind, target and source recorded while it was under way (each operation matched once).
     */
    private static void matchOperations(List<Event> history, FinalState state, Map<Long, FinalState.Operation> matched) {
        var byId = new HashMap<UUID, FinalState.Operation>();
        state.operations().forEach(operation -> byId.put(operation.opId(), operation));
        var taken = new HashSet<UUID>();
        for (var event : history) {
            if ((event.op().equals("merge") || event.op().equals("unmerge")) && event.opId() != null
                    && byId.containsKey(event.opId()) && event.op().equals("merge") == "merge".equals(byId.get(event.opId()).kind())) {
                matched.put(event.id(), byId.get(event.opId()));
                taken.add(event.opId());
            }
        }
        // the rest (unknown answers that named no operation) by kind, users and the time they were under way
        for (var event : history) {
            if (!event.op().equals("merge") && !event.op().equals("unmerge") || matched.containsKey(event.id())
                    || !event.unknown()) {
                continue;
            }
            for (var operation : state.operations()) {
                if (!taken.contains(operation.opId()) && operation.kind().equals(event.op())
                        && operation.target().equals(event.uid()) && operation.sources().contains(event.source())
                        && operation.recordedAt() >= event.start() - WINDOW && operation.recordedAt() <= event.end() + WINDOW) {
                    matched.put(event.id(), operation);
                    taken.add(operation.opId());
                    break;
                }
            }
        }
    }

    /** Who made which version of each profile, as far as the history and the journal tell. */
    private static final class Chains {
        private final FinalState state;
        /** pid, then version: the acknowledged changes that made it. */
        private final Map<UUID, Map<Long, Set<Event>>> makers = new HashMap<>();
        /**
         * pid, then version: the applied merges and unmerges whose journal gives it. A journal's versions are planned
         * from the rows the operation read, which a move with no answer may overtake (its batch can land after the
         * answer, and it is not kept as an unsettled change, see {@code UnsettledChanges}), so they weigh less than
         * an answer or the profile's own user.
         */
        private final Map<UUID, Map<Long, Set<FinalState.Operation>>> planned = new HashMap<>();
        /** pid: the creates and moves by hand that may have happened, which give a profile its own user. */
        private final Map<UUID, List<Event>> placements = new HashMap<>();
        /** pid, then version: the write ids reads saw at it. */
        private final Map<UUID, Map<Long, Set<String>>> seen = new HashMap<>();
        /** pid: the highest version some acknowledged answer shows existed (made, read, or replaced). */
        private final Map<UUID, Long> existed = new HashMap<>();
        /** pid, then the version replaced: the unknown changes that said they replace it. */
        private final Map<UUID, Map<Long, List<Event>>> contenders = new HashMap<>();
        private final Map<UUID, List<Event>> erases = new HashMap<>();
        /** pid, then the version replaced: every change that may have happened and said it replaces it, erases too. */
        private final Map<UUID, Map<Long, List<Event>>> guarded = new HashMap<>();

        Chains(List<Event> history, FinalState state, Map<Long, FinalState.Operation> operationOf) {
            this.state = state;
            for (var event : history) {
                if (event.ok()) {
                    event.versions().forEach((pid, version) -> {
                        if (event.isChange()) {
                            makers.computeIfAbsent(pid, p -> new HashMap<>()).computeIfAbsent(version, v -> new HashSet<>())
                                    .add(event);
                        }
                        existed.merge(pid, version, Math::max);
                    });
                    for (var pid : event.pids()) {
                        var replaced = event.replaces(pid);
                        if (replaced != null && event.isChange()) {
                            existed.merge(pid, replaced, Math::max);
                        }
                    }
                    event.seen().forEach((pid, write) -> seen.computeIfAbsent(pid, p -> new HashMap<>())
                            .computeIfAbsent(event.versions().get(pid), v -> new HashSet<>()).add(write));
                }
                if (event.unknown()) {
                    for (var pid : event.pids()) {
                        var replaced = event.replaces(pid);
                        if (replaced != null && !event.op().equals("erase")) {
                            contenders.computeIfAbsent(pid, p -> new HashMap<>())
                                    .computeIfAbsent(replaced, v -> new ArrayList<>()).add(event);
                        }
                    }
                }
                if (event.isChange() && event.mayHaveHappened()) {
                    for (var pid : event.expected().isEmpty() ? event.pids() : event.expected().keySet()) {
                        var replaced = event.replaces(pid);
                        if (replaced != null) {
                            guarded.computeIfAbsent(pid, p -> new HashMap<>())
                                    .computeIfAbsent(replaced, v -> new ArrayList<>()).add(event);
                        }
                    }
                }
                if ((event.op().equals("create") || event.op().equals("move")) && event.mayHaveHappened()) {
                    for (var pid : event.pids()) {
                        placements.computeIfAbsent(pid, p -> new ArrayList<>()).add(event);
                    }
                }
                if (event.op().equals("erase") && event.mayHaveHappened()) {
                    erases.computeIfAbsent(event.pids().get(0), p -> new ArrayList<>()).add(event);
                }
            }
            // the merges and unmerges applied, with the versions they gave (the recovery's too: no answer names those)
            for (var operation : state.operations()) {
                if ("applied".equals(operation.state())) {
                    operation.versions().forEach((pid, version) -> {
                        planned.computeIfAbsent(pid, p -> new HashMap<>()).computeIfAbsent(version, v -> new HashSet<>())
                                .add(operation);
                        existed.merge(pid, version, Math::max);
                    });
                }
            }
        }

        /**
         * Whether the move with no answer is the only create or move by hand that may have come last and gave the
         * profile the own user it ends with: one after the newest acknowledged placement (as {@code UsersCheck}
         * allows them). Then it happened, whatever a journal planned.
         */
        private boolean aloneGaveItsHome(Event move, UUID pid) {
            var all = placements.getOrDefault(pid, List.of());
            long from = all.stream().filter(Event::ok).mapToLong(e -> placed(e, pid)).max().orElse(0L);
            if (move.ifMatch() == null || move.ifMatch() < from) {
                return false;
            }
            return all.stream().filter(other -> other != move && move.uid().equals(other.uid())).noneMatch(other ->
                    other.ok() ? placed(other, pid) >= from : other.ifMatch() == null || other.ifMatch() >= from - 1);
        }

        private static long placed(Event placement, UUID pid) {
            return placement.versions().getOrDefault(pid, placement.op().equals("create") ? 1L : 0L);
        }

        /** Whether version {@code version} of the profile was there at some point. */
        boolean existed(UUID pid, long version) {
            var profile = state.profiles().get(pid);
            return profile != null && profile.version() >= version || existed.getOrDefault(pid, 0L) >= version;
        }

        /** Whether the unknown change made the version after the one it replaces; null if that cannot be told. */
        Boolean made(Event event, UUID pid) {
            Long replaced = event.replaces(pid);
            if (replaced == null) {
                return null;
            }
            long next = replaced + 1;
            var profile = state.profiles().get(pid);
            if (profile != null && profile.version() == replaced) {
                return false; // still at the version it replaced
            }
            var answered = makers.getOrDefault(pid, Map.of()).getOrDefault(next, Set.of());
            if (!answered.isEmpty()) {
                return answered.contains(event);
            }
            if (event.op().equals("move") && profile != null && event.uid().equals(profile.home())
                    && aloneGaveItsHome(event, pid)) {
                return true;
            }
            if (!planned.getOrDefault(pid, Map.of()).getOrDefault(next, Set.of()).isEmpty()) {
                return false; // a merge or unmerge planned it, and nothing outweighs that
            }
            String write = event.writes().get(pid);
            var reads = seen.getOrDefault(pid, Map.of()).getOrDefault(next, Set.of());
            if (write != null && !reads.isEmpty()) {
                return reads.contains(write);
            }
            if (write != null && profile != null && profile.version() == next) {
                return write.equals(profile.write());
            }
            if (!existed(pid, next)) {
                return profile == null ? null : false;
            }
            var others = contenders.getOrDefault(pid, Map.of()).getOrDefault(replaced, List.of());
            return others.size() == 1 && others.get(0) == event ? Boolean.TRUE : null;
        }

        /**
         * Whether the unknown change made the version after the one it replaces, told by the others that replaced the
         * same version: false when one of them happened, true when none did and the next version existed; or null.
         */
        Boolean settledByOthers(Event event, UUID pid, Map<Long, Boolean> applied) {
            Long replaced = event.replaces(pid);
            if (replaced == null) {
                return null;
            }
            var others = guarded.getOrDefault(pid, Map.of()).getOrDefault(replaced, List.of()).stream()
                    .filter(other -> other != event).toList();
            if (others.stream().anyMatch(other -> other.ok() || Boolean.TRUE.equals(applied.get(other.id())))) {
                return false;
            }
            boolean noneOfTheOthers = others.stream().allMatch(other -> Boolean.FALSE.equals(applied.get(other.id())));
            return noneOfTheOthers && existed(pid, replaced + 1) ? Boolean.TRUE : null;
        }

        /** The group of data changes this unknown one is part of, exactly one of which made the next version; or null. */
        OneOf oneOf(Event event) {
            if (!event.op().equals("put") && !event.op().equals("patch")) {
                return null;
            }
            UUID pid = event.pids().get(0);
            Long replaced = event.replaces(pid);
            if (replaced == null || !existed(pid, replaced + 1)
                    || !makers.getOrDefault(pid, Map.of()).getOrDefault(replaced + 1, Set.of()).isEmpty()
                    || !planned.getOrDefault(pid, Map.of()).getOrDefault(replaced + 1, Set.of()).isEmpty()
                    || !seen.getOrDefault(pid, Map.of()).getOrDefault(replaced + 1, Set.of()).isEmpty()) {
                return null;
            }
            var others = contenders.getOrDefault(pid, Map.of()).getOrDefault(replaced, List.of());
            boolean onlyData = others.stream().allMatch(e -> e.op().equals("put") || e.op().equals("patch"));
            return others.size() > 1 && onlyData ? new OneOf(pid, replaced + 1, List.copyOf(others)) : null;
        }

        /** Whether an unknown erase happened: the profile is gone, and no other erase that may have happened did it. */
        Boolean erased(Event event) {
            UUID pid = event.pids().get(0);
            if (state.profiles().containsKey(pid)) {
                return false;
            }
            var all = erases.getOrDefault(pid, List.of());
            if (all.stream().anyMatch(e -> e != event && e.ok())) {
                return false;
            }
            var possible = all.stream().filter(e -> e.ifMatch() != null && existed(pid, e.ifMatch())).toList();
            return possible.size() == 1 && possible.get(0) == event ? Boolean.TRUE : null;
        }
    }
}
