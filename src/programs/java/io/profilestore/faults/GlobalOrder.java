package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The groups' choices together in real time. Each group was searched on its own; a change that writes profiles of
 * several groups (a merge) is one read point for all of them, and requests of one client follow one another, so the
 * choices must also fit together: one placement of every change and read at once ({@link Placement}). When the choices
 * made do not fit, the groups the conflict runs through are searched again as one (their choices then fit together by
 * construction), and the whole is placed again; none fitting is a violation.
 */
final class GlobalOrder {

    /** How many times groups are joined before the history is called unexplained. */
    private static final int JOINS = 50;

    /** What the joint placement came to: the groups as finally searched, and what could not be explained or decided. */
    record Outcome(Map<List<ProfileChain>, OutcomeSearch.Choice> choices, List<String> unexplained, List<String> undecided) {
    }

    private GlobalOrder() {
    }

    static Outcome check(Map<List<ProfileChain>, OutcomeSearch.Choice> searched, UserForest forest) {
        var choices = new LinkedHashMap<>(searched);
        var unexplained = new ArrayList<String>();
        var undecided = new ArrayList<String>();
        for (int join = 0; join <= JOINS; join++) {
            var placement = new Placement();
            for (var entry : choices.entrySet()) {
                for (var chain : entry.getKey()) {
                    placement.add(chain, entry.getValue().makers().get(chain), entry.getValue().erasers().get(chain),
                            entry.getValue().seenLate().get(chain));
                }
            }
            if (placement.solve()) {
                return new Outcome(choices, unexplained, undecided);
            }
            var involved = involved(placement, choices.keySet());
            if (involved.size() < 2 || join == JOINS) {
                unexplained.add("the groups' choices do not fit together in real time: " + placement.conflict());
                return new Outcome(choices, unexplained, undecided);
            }
            var joined = new ArrayList<ProfileChain>();
            involved.forEach(joined::addAll);
            var search = OutcomeSearch.run(joined, forest, Map.of(), 1);
            involved.forEach(choices::remove);
            if (search.found().isEmpty()) {
                (search.undecided() ? undecided : unexplained).add("profiles " + joined.stream().map(c -> c.pid).toList()
                        + " searched together: " + search.reason());
                continue; // left out of the placement: reported
            }
            choices.put(joined, search.found().get(0));
        }
        return new Outcome(choices, unexplained, undecided);
    }

    /** The groups whose changes or reads the conflict runs through. */
    private static List<List<ProfileChain>> involved(Placement placement, Iterable<List<ProfileChain>> groups) {
        var groupOf = new HashMap<UUID, List<ProfileChain>>();
        groups.forEach(group -> group.forEach(chain -> groupOf.put(chain.pid, group)));
        var involved = new LinkedHashSet<List<ProfileChain>>();
        for (int point : placement.order.conflictPoints()) {
            var op = placement.opAt(point);
            if (op != null) {
                op.slots.keySet().stream().map(groupOf::get).filter(g -> g != null).forEach(involved::add);
            }
            var chain = placement.readAt(point);
            if (chain != null && groupOf.containsKey(chain.pid)) {
                involved.add(groupOf.get(chain.pid));
            }
        }
        return new ArrayList<>(involved);
    }
}
