package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Judges a history against the state the stores were left in (before check-tables repaired anything). Like Jepsen's
 * checkers, it does not rank evidence: a request with no answer may or may not have happened, and the history passes
 * when some choice of outcomes, placed in an order real time allows, explains every acknowledged answer, every read,
 * every merge's and unmerge's lists, and the final state ({@link OutcomeSearch}, one group of profiles at a time,
 * then all of them together in real time). The users' rows are the journal's applied operations played in order
 * ({@link UserForest}); each link must be its profile's own, or left by a change that may have happened.
 */
final class HistoryChecker {

    /**
     * Answers "outcome unknown": how many, settled as applied (in every choice that explains the history), as not, as
     * either (both explain it), and those in a group nothing explains or that was not decided.
     */
    record Unknowns(long total, long applied, long notApplied, long either, long unsettled, Map<String, Long> byOperation) {
    }

    /**
     * What the check found: violations (unexplained groups among them: groups of profiles nothing explains), groups
     * the search could not decide within its budget (not violations: reported), and {@code repairs}, how many
     * disagreements the first check-tables pass found in the state the checker judged.
     */
    record Result(long acknowledged, long lost, List<String> violations, Unknowns unknowns, long unexplained,
            List<String> undecided, long repairs) {
    }

    private HistoryChecker() {
    }

    /**
     * @param state the state as the run left it, before check-tables ({@code state.repairs()}: what it then found)
     *
     * <p>On a thread of its own with a deep stack: the search goes one level deeper for each version of a profile, and
     * a profile of a long run has thousands.
     */
    static Result check(List<Event> history, FinalState state) {
        var result = new AtomicReference<Result>();
        var failure = new AtomicReference<Throwable>();
        var checker = new Thread(null, () -> {
            try {
                result.set(checkHere(history, state));
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "history-checker", 1L << 30);
        checker.start();
        try {
            checker.join();
        } catch (InterruptedException e) {
            checker.interrupt();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking", e);
        }
        if (failure.get() instanceof RuntimeException e) {
            throw e;
        }
        if (failure.get() != null) {
            throw new IllegalStateException("the checker failed", failure.get());
        }
        return result.get();
    }

    private static Result checkHere(List<Event> history, FinalState state) {
        var ops = Ops.of(history, state);
        var violations = new ArrayList<>(ops.violations);
        var forest = UserForest.of(ops, state);
        var chains = chains(ops, state);
        var lostPids = new HashSet<UUID>();
        chains.forEach(chain -> lostChange(chain).ifPresent(why -> {
            lostPids.add(chain.pid);
            violations.add("lost: profile " + chain.pid + " " + why);
        }));
        long unexplained = 0;
        var undecided = new ArrayList<String>();
        var choices = new LinkedHashMap<List<ProfileChain>, OutcomeSearch.Choice>();
        for (var group : groups(chains)) {
            if (group.stream().anyMatch(chain -> lostPids.contains(chain.pid))) {
                continue;
            }
            var search = OutcomeSearch.run(group, forest, Map.of(), 1);
            if (search.undecided()) {
                undecided.add(search.reason() + ": " + history(history, group));
            } else if (search.found().isEmpty()) {
                unexplained++;
                violations.add("unexplained: " + search.reason() + "; the smallest history that shows it: "
                        + history(history, group));
            } else {
                choices.put(group, search.found().get(0));
            }
        }
        var together = GlobalOrder.check(choices, forest);
        unexplained += together.unexplained().size();
        together.unexplained().forEach(v -> violations.add("unexplained: " + v));
        undecided.addAll(together.undecided());
        forest.check(state, ops, violations);
        forest.checkTargets(ops, violations);
        checkLinks(state, ops, violations);
        history.stream().filter(e -> e.status() >= 500 && e.status() != 503).forEach(e -> violations.add(
                e.op() + " #" + e.id() + " was answered " + e.status() + " (" + e.problem() + ")"));
        var unknowns = unknowns(history, ops, together.choices().keySet(), forest);
        long acknowledged = history.stream().filter(e -> e.isChange() && e.ok()).count();
        return new Result(acknowledged, lostPids.size(), violations, unknowns, unexplained, undecided,
                state.repairs().size());
    }

    /** Every profile something may have written or read, with what may have made its versions. */
    private static List<ProfileChain> chains(Ops ops, FinalState state) {
        var pids = new HashSet<UUID>(state.profiles().keySet());
        pids.addAll(ops.byPid.keySet());
        return pids.stream().sorted().map(pid -> new ProfileChain(pid, state.profiles().get(pid),
                ops.byPid.getOrDefault(pid, List.of()), ops.reads.getOrDefault(pid, List.of()),
                state.versionWriters().getOrDefault(pid, Map.of())))
                .filter(chain -> chain.last != null || chain.candidates.values().stream().flatMap(List::stream).anyMatch(op -> op.acked || op.journaled))
                .toList();
    }

    /** An acknowledged change the final state cannot hold whatever else happened: a lost write. */
    private static Optional<String> lostChange(ProfileChain chain) {
        long acknowledged = chain.highestAcknowledged();
        if (chain.last != null) {
            return acknowledged > chain.last.version() ? Optional.of("ends at version " + chain.last.version()
                    + ", below the acknowledged " + acknowledged) : Optional.empty();
        }
        long erasable = chain.erases.stream().mapToLong(op -> op.slots.get(chain.pid).replaces()).max().orElse(-1);
        if (erasable < 0) {
            return Optional.of("is gone, and no erase of it may have happened");
        }
        return acknowledged > erasable ? Optional.of("is gone, but every erase that may have happened replaced a version"
                + " below the acknowledged " + acknowledged + " (the highest: " + erasable + ")") : Optional.empty();
    }

    /** Profiles a batch with no answer links, together: its versions are all made or none. */
    private static List<List<ProfileChain>> groups(List<ProfileChain> chains) {
        var byPid = new HashMap<UUID, ProfileChain>();
        chains.forEach(chain -> byPid.put(chain.pid, chain));
        var parent = new HashMap<UUID, UUID>();
        for (var chain : chains) {
            for (var list : chain.candidates.values()) {
                for (var op : list) {
                    if (op.allOrNothing && !op.acked && !op.impossible) {
                        op.slots.keySet().stream().filter(byPid::containsKey).forEach(pid -> union(parent, chain.pid, pid));
                    }
                }
            }
        }
        var groups = new LinkedHashMap<UUID, List<ProfileChain>>();
        chains.forEach(chain -> groups.computeIfAbsent(find(parent, chain.pid), r -> new ArrayList<>()).add(chain));
        return new ArrayList<>(groups.values());
    }

    private static UUID find(Map<UUID, UUID> parent, UUID pid) {
        UUID at = pid;
        while (parent.containsKey(at) && !parent.get(at).equals(at)) {
            at = parent.get(at);
        }
        return at;
    }

    private static void union(Map<UUID, UUID> parent, UUID a, UUID b) {
        UUID ra = find(parent, a);
        UUID rb = find(parent, b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }

    /**
     * Each profile is listed by the user its row names (and every user a row names has a row of its own); any other
     * link was left by a late write that lost the row and whose link stayed: a change with no answer that may have
     * put the profile under that user, a merge or unmerge with no answer into that user (its recovery may have dropped
     * the profile from its journal), or the system's own work. An acknowledged change's link is always overwritten by
     * the change that later moved the profile away (its fence is higher).
     */
    private static void checkLinks(FinalState state, Ops ops, List<String> violations) {
        var byWriter = new HashMap<UUID, List<Op>>();
        Stream.concat(ops.all.stream(), ops.linkOnly.stream()).filter(op -> !op.impossible && !op.acked && op.writer != null)
                .forEach(op -> byWriter.computeIfAbsent(op.writer, w -> new ArrayList<>()).add(op));
        var listed = new HashSet<List<UUID>>();
        for (var link : state.links()) {
            listed.add(List.of(link.uid(), link.pid()));
            var profile = state.profiles().get(link.pid());
            if (profile != null && profile.uid().equals(link.uid())) {
                continue;
            }
            boolean explained = ops.systemWriters.contains(link.writer()) || byWriter.getOrDefault(link.writer(), List.of())
                    .stream().anyMatch(op -> op.slots.containsKey(link.pid())
                            && Objects.equals(op.slots.get(link.pid()).uid(), link.uid())
                            || keptUserAt(op, link, state, ops)
                            || op.operation != null && (op.kind == Op.Kind.MERGE ? op.operation.target().equals(link.uid())
                                    : op.operation.sources().contains(link.uid())));
            if (!explained) {
                violations.add("stray link: user " + link.uid() + " lists profile " + link.pid() + ", which is "
                        + (profile == null ? "gone" : "under " + profile.uid()) + ", and its writer " + link.writer()
                        + " is no change with no answer that may have put it there");
            }
        }
        state.profiles().forEach((pid, profile) -> {
            if (!listed.contains(List.of(profile.uid(), pid))) {
                violations.add("missing link: profile " + pid + " is under " + profile.uid() + ", which does not list it");
            }
            for (var user : new LinkedHashSet<>(List.of(profile.uid(), profile.home()))) {
                if (!state.users().containsKey(user)) {
                    violations.add("user: profile " + pid + " names user " + user + ", which has no row");
                }
            }
        });
    }

    /**
     * Whether a change that keeps the profile's user (a put, a patch, a batch update) wrote this link: its row's own
     * link names the user of the version it replaced, which another change with no answer may have moved it from.
     */
    private static boolean keptUserAt(Op op, FinalState.Link link, FinalState state, Ops ops) {
        var slot = op.slots.get(link.pid());
        if (slot == null || slot.uid() != null || slot.erase() || slot.version() < 2) {
            return false;
        }
        var chain = new ProfileChain(link.pid(), state.profiles().get(link.pid()),
                ops.byPid.getOrDefault(link.pid(), List.of()), List.of(), Map.of());
        return chain.usersAt(slot.replaces()).stream().anyMatch(user -> ProfileChain.same(user, link.uid()));
    }

    /**
     * How each answer "outcome unknown" ends: applied or not in every choice that explains its group, or either; the
     * journal settles a merge's or unmerge's, the audit trail a change it has no record of. One in a group nothing
     * explains, or not decided, is unsettled.
     */
    private static Unknowns unknowns(List<Event> history, Ops ops, Iterable<List<ProfileChain>> groups, UserForest forest) {
        var opOf = new HashMap<Event, Op>();
        // a merge's request, not the completion beside it
        ops.all.stream().filter(op -> op.event != null).forEach(op -> opOf.putIfAbsent(op.event, op));
        var groupOf = new HashMap<Op, List<ProfileChain>>();
        for (var group : groups) {
            for (var chain : group) {
                chain.candidates.values().forEach(list -> list.forEach(op -> groupOf.put(op, group)));
                chain.erases.forEach(op -> groupOf.put(op, group));
            }
        }
        long applied = 0;
        long notApplied = 0;
        long either = 0;
        long unsettled = 0;
        var byOperation = new TreeMap<String, Long>();
        for (var event : history) {
            if (!event.unknown() || !event.isChange()) {
                continue;
            }
            byOperation.merge(event.op(), 1L, Long::sum);
            var op = opOf.get(event);
            if (op == null || op.impossible) {
                notApplied++;
            } else if (op.journaled) {
                applied++;
            } else if (!groupOf.containsKey(op)) {
                unsettled++; // its group is unexplained or undecided (reported)
            } else {
                var group = groupOf.get(op);
                var can = OutcomeSearch.run(group, forest, Map.of(op, true), 1);
                var cannot = OutcomeSearch.run(group, forest, Map.of(op, false), 1);
                if (can.undecided() || cannot.undecided()) {
                    unsettled++;
                } else if (!can.found().isEmpty() && !cannot.found().isEmpty()) {
                    either++;
                } else if (!can.found().isEmpty()) {
                    applied++;
                } else {
                    notApplied++;
                }
            }
        }
        return new Unknowns(byOperation.values().stream().mapToLong(Long::longValue).sum(), applied, notApplied, either,
                unsettled, byOperation);
    }

    /** The events of a group's profiles, as short as they can be said: the smallest history that shows a violation. */
    private static String history(List<Event> history, List<ProfileChain> group) {
        var pids = group.stream().map(chain -> chain.pid).collect(Collectors.toSet());
        var lines = history.stream().filter(e -> e.pids().stream().anyMatch(pids::contains)
                        || e.moved().stream().anyMatch(pids::contains) || e.versions().keySet().stream().anyMatch(pids::contains))
                .map(e -> "#" + e.id() + " " + e.op() + " " + e.outcome() + (e.ifMatch() == null ? "" : " if-match " + e.ifMatch())
                        + (e.versions().isEmpty() ? "" : " -> " + e.versions().values()) + (e.uid() == null ? "" : " user " + e.uid()))
                .toList();
        return "[" + String.join("; ", lines.size() > 40 ? lines.subList(lines.size() - 40, lines.size()) : lines) + "]";
    }
}
