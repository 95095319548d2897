package io.profilestore.faults;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/** What the workload's clients send, as weights out of 100. */
final class WorkloadMix {

    private WorkloadMix() {
    }

    /** What the clients send, by weight out of 100: every kind of change, on a few profiles and users. */
    static final Map<String, Integer> USUAL = ordered("create", 10, "put", 25, "patch", 15, "batchUpdate", 8,
            "erase", 4, "move", 8, "merge", 5, "unmerge", 3, "read", 22);
    /** The merge-heavy phase: merges and unmerges 40 % of the time, among moves and edits of what they move. */
    static final Map<String, Integer> MERGE_HEAVY = ordered("create", 8, "put", 14, "patch", 8,
            "batchUpdate", 5, "erase", 3, "move", 12, "merge", 22, "unmerge", 18, "read", 10);

    private static Map<String, Integer> ordered(Object... pairs) {
        var mix = new LinkedHashMap<String, Integer>();
        for (int i = 0; i < pairs.length; i += 2) {
            mix.put((String) pairs[i], (Integer) pairs[i + 1]);
        }
        if (mix.values().stream().mapToInt(Integer::intValue).sum() != 100) {
            throw new IllegalArgumentException("a mix adds up to 100: " + mix);
        }
        return mix;
    }

    /** An operation drawn from a mix of weights that add up to 100. */
    static String pick(SplittableRandom random, Map<String, Integer> mix) {
        int dice = random.nextInt(100);
        for (var entry : mix.entrySet()) {
            dice -= entry.getValue();
            if (dice < 0) {
                return entry.getKey();
            }
        }
        return "read";
    }
}
