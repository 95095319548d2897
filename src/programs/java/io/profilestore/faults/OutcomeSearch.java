package io.profilestore.faults;

import io.profilestore.faults.ProfileChain.Held;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Searches the outcomes of a group of profiles (those a batch update with no answer links): who made each of their
 * versions, among the changes that may have. An acknowledged change made the version it answered; one whose outcome is
 * unknown made the version after the one it replaced, or nothing (it failed, or lost the row to a newer write); a
 * merge or unmerge the journal holds applied, each version it journaled or not (its request, or the recovery that
 * completed it, made it; or it lost that row to a newer write); a batch made all its versions or none.
 *
 * <p>Makers are chosen one version at a time, and each is judged at once ({@link ProfileChain}, {@link Timing}): what
 * the version held against the reads of it and, at the last, the final row; whether it can be placed in real time
 * after the versions before it. So a wrong choice fails where it is made, not after every choice that follows it; and
 * a suffix of a profile's versions that failed from some point on is not tried again from a point no better (same
 * version, same contents, no earlier times). A choice of every version stands when all of it fits in real time at once
 * ({@link Placement}) and no merge or unmerge missed a profile it should have taken ({@link MergeLists}). No rule ranks
 * one kind of evidence above another: every choice is tried, until one stands or a budget of steps runs out (then the
 * group is undecided: not a violation, and reported).
 */
final class OutcomeSearch {

    /** How many steps a group's search may take: far more than the few changes a group has with no answer need. */
    static final long BUDGET = 5_000_000;

    /**
     * One choice that stands: per profile, its makers (version k at k - 1), its eraser, and the reads that saw a write
     * with no answer that lost its version ({@code seenLate}: the read, the write).
     */
    record Choice(Map<ProfileChain, List<Op>> makers, Map<ProfileChain, Op> erasers,
            Map<ProfileChain, Map<Ops.Read, Op>> seenLate) {
    }

    /** A point of the search from which a profile's later versions failed to be chosen. */
    private record Memo(int profile, long version, Held held, Map<Op, Boolean> batches, Set<Op> usedRepairs) {
    }

    private final List<ProfileChain> group;
    private final UserForest forest;
    private final Map<Op, Boolean> forced;
    private final int wanted;
    private final List<Choice> found = new ArrayList<>();
    private final Map<ProfileChain, List<Op>> makers = new HashMap<>();
    private final Map<ProfileChain, Op> erasers = new HashMap<>();
    private final Map<ProfileChain, Map<Ops.Read, Op>> seenLate = new HashMap<>();
    /** Batches with no answer: whether they made their versions (all of them) or none. */
    private final Map<Op, Boolean> batches = new HashMap<>();
    private final Set<Op> usedRepairs = new HashSet<>();
    private final Map<Memo, List<Timing.Frontier>> failedFrom = new HashMap<>();
    /** How many times a choice of every version was tried whole: a failure after one is not the suffix's alone. */
    private long wholeTries;
    private long steps;
    private int deepest = -1;
    private String reason = "no change that may have happened made its first version";

    private OutcomeSearch(List<ProfileChain> group, UserForest forest, Map<Op, Boolean> forced, int wanted) {
        this.group = group;
        this.forest = forest;
        this.forced = forced;
        this.wanted = wanted;
    }

    /** Up to {@code wanted} choices that stand, with {@code forced} changes made to win (true) or not (false). */
    static OutcomeSearch run(List<ProfileChain> group, UserForest forest, Map<Op, Boolean> forced, int wanted) {
        var search = new OutcomeSearch(group, forest, forced, wanted);
        search.profile(0);
        return search;
    }

    List<Choice> found() {
        return found;
    }

    /** Whether it ran out of steps before it could tell (no choice found, and not every choice tried). */
    boolean undecided() {
        return found.isEmpty() && steps >= BUDGET;
    }

    /** Why the choice that got furthest fell. */
    String reason() {
        return undecided() ? "the search ran out of its " + BUDGET + " steps" : reason;
    }

    private boolean done() {
        return found.size() >= wanted || steps >= BUDGET;
    }

    private void fail(int depth, String why) {
        if (depth >= deepest) {
            deepest = depth;
            reason = why;
        }
    }

    private void profile(int index) {
        if (done()) {
            return;
        }
        if (index == group.size()) {
            place();
            return;
        }
        var chain = group.get(index);
        makers.put(chain, new ArrayList<>());
        seenLate.put(chain, new HashMap<>());
        if (chain.last != null) {
            version(index, 1, chain.last.version(), Held.NOTHING, Timing.Frontier.START);
            return;
        }
        var acked = chain.erases.stream().filter(op -> op.acked).toList();
        var options = acked.isEmpty() ? chain.erases : acked;
        if (options.isEmpty()) {
            fail(index * 1000, "profile " + chain.pid + " is gone, and no erase of it may have happened");
        }
        for (var eraser : options) {
            if (forced.get(eraser) == Boolean.FALSE) {
                continue;
            }
            erasers.put(chain, eraser);
            version(index, 1, eraser.slots.get(chain.pid).replaces(), Held.NOTHING, Timing.Frontier.START);
            erasers.remove(chain);
        }
    }

    /** Chooses the maker of version {@code k} of the profile (of its versions 1..{@code last}), which held {@code before}. */
    private void version(int index, long k, long last, Held before, Timing.Frontier frontier) {
        var chain = group.get(index);
        if (done() || ++steps >= BUDGET) {
            return;
        }
        if (k > last) {
            finishProfile(index, before, frontier);
            return;
        }
        var memo = new Memo(index, k, before, batches.isEmpty() ? Map.of() : Map.copyOf(batches),
                usedRepairs.isEmpty() ? Set.of() : Set.copyOf(usedRepairs));
        if (failedFrom.getOrDefault(memo, List.of()).stream().anyMatch(failed -> failed.noLaterThan(frontier))) {
            return; // failed before from here, with times no later: it fails again
        }
        int before0 = found.size();
        long tries0 = wholeTries;
        var candidates = chain.candidates.getOrDefault(k, List.of()).stream()
                .filter(op -> forced.get(op) != Boolean.FALSE && batches.get(op) != Boolean.FALSE).toList();
        var acked = candidates.stream().filter(op -> op.acked || forced.get(op) == Boolean.TRUE).toList();
        List<Op> options = new ArrayList<>(acked.isEmpty() ? candidates : acked.subList(0, 1));
        if (acked.isEmpty() && k > 1) {
            chain.repairs.stream().filter(op -> !usedRepairs.contains(op)).forEach(options::add);
        }
        int depth = index * 1000 + (int) Math.min(k, 998);
        if (options.isEmpty()) {
            fail(depth, "profile " + chain.pid + ": no change that may have happened made version " + k + " ("
                    + (chain.last == null ? "erased at the end" : "it ends at " + chain.last.version()) + ")");
        }
        for (var maker : options) {
            var undo = new ArrayList<Op>();
            if (!take(maker, candidates, undo)) {
                continue;
            }
            var after = chain.next(before, maker);
            String wrong = chain.wrongVersion(k, before, after, maker);
            var timing = wrong == null ? Timing.next(chain, k, before, maker, after, frontier, candidates, forced) : null;
            if (wrong != null || timing.failure() != null) {
                fail(depth, "profile " + chain.pid + ": " + (wrong != null ? wrong : timing.failure()));
                undo.forEach(batches::remove);
                continue;
            }
            makers.get(chain).add(maker);
            seenLate.get(chain).putAll(timing.seenLate());
            if (maker.kind == Op.Kind.REPAIR) {
                usedRepairs.add(maker);
            }
            version(index, k + 1, last, after, timing.frontier());
            makers.get(chain).remove(makers.get(chain).size() - 1);
            timing.seenLate().keySet().forEach(seenLate.get(chain)::remove);
            usedRepairs.remove(maker);
            undo.forEach(batches::remove);
        }
        if (found.size() == before0 && wholeTries == tries0 && steps < BUDGET) {
            failedFrom.computeIfAbsent(memo, m -> new ArrayList<>()).add(frontier);
        }
    }

    /**
     * Records what choosing {@code maker} for a version says of the batches that also replaced it: the maker made all
     * of its versions, the others none. False when that contradicts an earlier choice.
     */
    private boolean take(Op maker, List<Op> rivals, List<Op> undo) {
        if (maker.allOrNothing && !maker.acked) {
            if (batches.get(maker) == Boolean.FALSE) {
                return false;
            }
            if (!batches.containsKey(maker)) {
                batches.put(maker, true);
                undo.add(maker);
            }
        }
        for (var rival : rivals) {
            if (rival != maker && rival.allOrNothing && !rival.acked) {
                if (batches.get(rival) == Boolean.TRUE) {
                    undo.forEach(batches::remove);
                    return false;
                }
                if (!batches.containsKey(rival)) {
                    batches.put(rival, false);
                    undo.add(rival);
                }
            }
        }
        return true;
    }

    /**
     * The profile's versions are chosen: the erase that removed it (if gone) and any read of a version above them; what
     * did not make a version must be allowed not to have. Then the next profile.
     */
    private void finishProfile(int index, Held end, Timing.Frontier frontier) {
        var chain = group.get(index);
        var chosen = makers.get(chain);
        var eraser = erasers.get(chain);
        var undo = new ArrayList<Op>();
        String wrong = null;
        for (var list : chain.candidates.values()) {
            for (var op : list) {
                if (chosen.contains(op)) {
                    continue;
                }
                if (op.acked || forced.get(op) == Boolean.TRUE) {
                    wrong = op + " made version " + op.slots.get(chain.pid).version() + " of profile " + chain.pid
                            + ", and another change did";
                } else if (op.allOrNothing && batches.get(op) == Boolean.TRUE) {
                    wrong = "half a batch: " + op + " made its versions of other profiles and not version "
                            + op.slots.get(chain.pid).version() + " of profile " + chain.pid;
                } else if (op.allOrNothing && !batches.containsKey(op)) {
                    batches.put(op, false);
                    undo.add(op);
                }
            }
        }
        for (var op : chain.erases) {
            if (op != eraser && (op.acked || forced.get(op) == Boolean.TRUE)) {
                wrong = op + " erased profile " + chain.pid + " at version " + op.slots.get(chain.pid).replaces()
                        + ", which " + (chain.last == null ? "another erase removed" : "is there at version "
                        + chain.last.version());
            }
        }
        Timing timing = null;
        if (wrong == null) {
            timing = Timing.end(chain, chosen.size(), end, eraser, frontier, forced);
            wrong = timing.failure();
        }
        if (wrong != null) {
            fail(index * 1000 + 999, wrong.startsWith("half") ? wrong : "profile " + chain.pid + ": " + wrong);
        } else {
            seenLate.get(chain).putAll(timing.seenLate());
            profile(index + 1);
            timing.seenLate().keySet().forEach(seenLate.get(chain)::remove);
        }
        undo.forEach(batches::remove);
    }

    /** Every profile's versions are chosen: place it all in real time, then the merges' lists. */
    private void place() {
        wholeTries++;
        var placement = new Placement();
        var absent = new ArrayList<Placement.Absent>();
        for (var chain : group) {
            absent.addAll(placement.add(chain, makers.get(chain), erasers.get(chain), seenLate.get(chain)));
        }
        if (!placement.solve()) {
            fail(group.size() * 1000, placement.conflict());
            return;
        }
        for (var read : absent) {
            if (!placement.placeable(read)) {
                fail(group.size() * 1000, read.read().event().op() + " #" + read.read().event().id() + " found no profile "
                        + "while it existed, between its create and its erase");
                return;
            }
        }
        for (var chain : group) {
            String wrong = MergeLists.check(chain, makers.get(chain), erasers.get(chain), placement, forest);
            if (wrong != null) {
                fail(group.size() * 1000 + 1, "profile " + chain.pid + ": " + wrong);
                return;
            }
        }
        var copy = new HashMap<ProfileChain, List<Op>>();
        makers.forEach((chain, list) -> copy.put(chain, List.copyOf(list)));
        var late = new HashMap<ProfileChain, Map<Ops.Read, Op>>();
        seenLate.forEach((chain, map) -> late.put(chain, Map.copyOf(map)));
        found.add(new Choice(copy, new HashMap<>(erasers), late));
    }
}
