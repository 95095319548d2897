package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What a run finds loaded of its dataset, and that a smaller dataset is the start of a larger one. */
class DatasetTest {

    @Test
    void theLoadedPrefixIsFoundInLogarithmicallyManyQuestions() {
        var asked = new AtomicInteger();
        for (int loaded : new int[] {0, 1, 999, 100_000, 2_999_999, 3_000_000}) {
            asked.set(0);
            assertThat(Dataset.loadedPrefix(3_000_000, i -> asked.incrementAndGet() > 0 && i < loaded))
                    .as("%,d loaded", loaded).isEqualTo(loaded);
            assertThat(asked).as("questions for %,d loaded", loaded).hasValueLessThanOrEqualTo(22);
        }
        assertThat(Dataset.loadedPrefix(0, i -> true)).isZero();
    }

    @Test
    void aSmallerDatasetIsTheFirstProfilesOfALargerOneOfTheSameSeed() {
        var small = Dataset.of(5, 40);
        var large = Dataset.of(5, 90);

        assertThat(large.pids.subList(0, 40)).isEqualTo(small.pids);
        assertThat(java.util.Arrays.copyOf(large.surnames, 40)).isEqualTo(small.surnames);
        assertThat(java.util.Arrays.copyOf(large.phones, 40)).isEqualTo(small.phones);
    }
}
