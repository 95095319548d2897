package io.profilestore.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The groups' choices together in real time. Each group was placed on its own; a change that writes profiles of
 * several groups (a merge) is one read point for all of them, and requests of one client follow one another, so the
 * choices must also fit together: one placement of every change and read at once ({@link Placement}). Should the
 * first choices not fit, the others each group kept are tried (a bounded search); none fitting is a violation.
 */
final class GlobalOrder {

    /** How many combinations of the groups' choices are tried before the history is called unexplained. */
    private static final int TRIES = 200;

    private GlobalOrder() {
    }

    static void check(Map<List<ProfileChain>, List<OutcomeSearch.Choice>> choices, List<String> violations) {
        var groups = new ArrayList<>(choices.keySet());
        var picked = new int[groups.size()];
        String first = null;
        for (int attempt = 0; attempt < TRIES; attempt++) {
            var placement = new Placement();
            for (int g = 0; g < groups.size(); g++) {
                var choice = choices.get(groups.get(g)).get(picked[g]);
                for (var chain : groups.get(g)) {
                    placement.add(chain, choice.makers().get(chain), choice.erasers().get(chain));
                }
            }
            if (placement.solve()) {
                return;
            }
            first = first == null ? placement.conflict() : first;
            if (!next(picked, groups, choices)) {
                break;
            }
        }
        violations.add("unexplained: the groups' choices do not fit together in real time: " + first);
    }

    /** The next combination, counting through the groups that have more than one choice. */
    private static boolean next(int[] picked, List<List<ProfileChain>> groups,
            Map<List<ProfileChain>, List<OutcomeSearch.Choice>> choices) {
        for (int g = 0; g < picked.length; g++) {
            if (picked[g] + 1 < choices.get(groups.get(g)).size()) {
                picked[g]++;
                return true;
            }
            picked[g] = 0;
        }
        return false;
    }
}
