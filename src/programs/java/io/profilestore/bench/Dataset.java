package io.profilestore.bench;

import io.profilestore.demo.PlantedDuplicates;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.IntPredicate;

/**
 * The benchmark's profiles: generated from a seed (so profile i is the same document in every run), some people twice
 * ({@link PlantedDuplicates}, for measuring how many duplicates matches find), each profile at the pid and under the
 * user the seed gives it ({@link ImportBench#pid}), so that a later run knows every pid without a file of them.
 */
final class Dataset {

    /** The share of profiles followed by a second record of their person. */
    static final double DUPLICATES = 0.02;

    final long seed;
    final int size;
    final List<UUID> pids;
    /** Of each profile, what the searches look for: its surname and first name as stored, its phone's digits. */
    final String[] surnames;
    final String[] firstNames;
    final String[] phones;
    /** Of each profile, the profile that is the same person (the one it duplicates, or its duplicate), or -1. */
    final int[] samePerson;

    private Dataset(long seed, int size) {
        this.seed = seed;
        this.size = size;
        this.pids = new ArrayList<>(size);
        this.surnames = new String[size];
        this.firstNames = new String[size];
        this.phones = new String[size];
        this.samePerson = new int[size];
        var generator = generator();
        for (int i = 0; i < size; i++) {
            var generated = generator.next();
            var data = generated.data();
            pids.add(ImportBench.pid(seed, i));
            surnames[i] = data.path("surname").asText();
            firstNames[i] = data.path("firstName").asText();
            phones[i] = data.path("phones").get(0).asText().replaceAll("\\D", "");
            samePerson[i] = generated.twinOf();
            if (generated.twinOf() >= 0) {
                samePerson[generated.twinOf()] = i;
            }
        }
    }

    static Dataset of(long seed, int size) {
        return new Dataset(seed, size);
    }

    /** The documents in order, generated again (a million of them do not need to sit in memory). */
    PlantedDuplicates generator() {
        return new PlantedDuplicates(seed, 0.1, DUPLICATES);
    }

    UUID uid(int i) {
        return ImportBench.uid(seed, i);
    }

    /**
     * How many of the first profiles of a dataset of {@code size} are loaded, given whether profile i is: runs load
     * a dataset from its first profile, so the loaded ones are a prefix, found in log2(size) questions. (An import
     * killed midway may have written some beyond its place; importing them again writes the same cells. A benchmark
     * killed during its import, never resumed, may also have left some out below it, which this does not see: load
     * such a stack afresh.)
     */
    static int loadedPrefix(int size, IntPredicate loaded) {
        int low = 0; // profiles below low are loaded
        int high = size; // profiles from high on are not
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (loaded.test(middle)) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
