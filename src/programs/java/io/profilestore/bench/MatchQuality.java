package io.profilestore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Function;

/**
 * How well {@code GET /v1/profiles/{pid}/matches} finds the people the dataset holds twice ({@link Dataset#samePerson}):
 * recall, the share of planted pairs whose other half a profile's matches name; precision, the share of the users
 * matches name that are the planted other half (every other user named counts against it, a real namesake or a shared
 * number too: the generator makes those by chance, as life does). Asked of planted profiles and of as many profiles
 * without a twin, by score band, so that the ranking's use shows: a caller that merges from the top band only.
 */
final class MatchQuality {

    /** A band of the score: matches at or above {@code from}. */
    record Band(double from, long named, long right) {
        double precision() {
            return named == 0 ? Double.NaN : (double) right / named;
        }
    }

    record Outcome(int asked, int pairs, int found, List<Band> bands) {
        double recall() {
            return pairs == 0 ? Double.NaN : (double) found / pairs;
        }
    }

    private static final double[] BANDS = {0, 0.7, 0.85};

    private MatchQuality() {
    }

    /**
     * @param matches the answer of GET /v1/profiles/{pid}/matches for a pid
     * @param sample  planted pairs asked at most (each from one side, its original's), and as many profiles without
     */
    static Outcome measure(Dataset dataset, Function<UUID, JsonNode> matches, int sample, long seed) {
        var random = new SplittableRandom(seed);
        var twins = new ArrayList<Integer>();
        var alone = new ArrayList<Integer>();
        for (int i = 0; i < dataset.size; i++) {
            if (dataset.samePerson[i] > i) {
                twins.add(i);
            } else if (dataset.samePerson[i] < 0) {
                alone.add(i);
            }
        }
        var asked = new ArrayList<Integer>();
        asked.addAll(pick(twins, sample, random));
        asked.addAll(pick(alone, asked.size(), random));
        long[] named = new long[BANDS.length];
        long[] right = new long[BANDS.length];
        int pairs = 0;
        int found = 0;
        for (int i : asked) {
            int other = dataset.samePerson[i];
            UUID otherUser = other < 0 ? null : dataset.uid(other);
            boolean sawOther = false;
            for (var match : matches.apply(dataset.pids.get(i)).path("matches")) {
                boolean isOther = UUID.fromString(match.path("uid").asText()).equals(otherUser);
                sawOther |= isOther;
                double score = match.path("score").asDouble();
                for (int b = 0; b < BANDS.length; b++) {
                    if (score >= BANDS[b]) {
                        named[b]++;
                        right[b] += isOther ? 1 : 0;
                    }
                }
            }
            if (other >= 0) {
                pairs++;
                found += sawOther ? 1 : 0;
            }
        }
        var bands = new ArrayList<Band>();
        for (int b = 0; b < BANDS.length; b++) {
            bands.add(new Band(BANDS[b], named[b], right[b]));
        }
        return new Outcome(asked.size(), pairs, found, bands);
    }

    private static List<Integer> pick(List<Integer> from, int count, SplittableRandom random) {
        var picked = new ArrayList<>(from);
        for (int i = picked.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            var swap = picked.get(i);
            picked.set(i, picked.get(j));
            picked.set(j, swap);
        }
        return picked.subList(0, Math.min(count, picked.size()));
    }

    static String markdown(Outcome outcome) {
        var md = new StringBuilder(String.format("%nPlanted pairs asked: %,d (from one side each), profiles without a twin:"
                + " %,d. **Recall**: %,d of %,d found, %.1f%%.%n%n", outcome.pairs(), outcome.asked() - outcome.pairs(),
                outcome.found(), outcome.pairs(), 100 * outcome.recall()));
        md.append("| matches with score ≥ | users named | the planted twin | precision |\n| ---: | ---: | ---: | ---: |\n");
        for (var band : outcome.bands()) {
            md.append(String.format("| %.2f | %,d | %,d | %.1f%% |%n", band.from(), band.named(), band.right(),
                    100 * band.precision()));
        }
        return md.toString();
    }
}
