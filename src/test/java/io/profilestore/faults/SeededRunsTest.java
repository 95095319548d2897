package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code ./faults/run --quick --runs N}: the runs, their folders and lines, without running the suite. */
class SeededRunsTest {

    @Test
    void eachRunHasTheNextSeedAFolderOfItsOwnAndTheCommandThatRunsItAlone() {
        var options = FaultSuite.Options.parse(new String[] {"--quick", "--runs", "3", "--seed", "7", "--out", "/tmp/f"});

        var second = options.forRun(1);

        assertThat(second.seed()).isEqualTo(8);
        assertThat(second.out()).isEqualTo(Path.of("/tmp/f/seed-8"));
        assertThat(second.quick()).isTrue();
        assertThat(second.runs()).isEqualTo(1);
        assertThat(second.command()).isEqualTo("--quick --seed 8 --out /tmp/f/seed-8");
        assertThat(FaultSuite.Options.parse(new String[] {"--quick", "--runs", "2"}).forRun(0).out())
                .isEqualTo(Path.of("target/faults-quick/seed-20261201"));
    }

    @Test
    void oneRunIsTheRunAsBeforeInItsOwnFolder() {
        var options = FaultSuite.Options.parse(new String[] {"--quick"});

        assertThat(options.runs()).isEqualTo(1);
        assertThat(options.forRun(0)).isEqualTo(options);
        assertThat(options.out()).isEqualTo(Path.of("target/faults-quick"));
    }

    @Test
    void aNumberOfRunsBelowOneOrMissingIsRefused() {
        assertThatThrownBy(() -> FaultSuite.Options.parse(new String[] {"--quick", "--runs", "0"}))
                .hasMessageContaining("--runs");
        assertThatThrownBy(() -> FaultSuite.Options.parse(new String[] {"--quick", "--runs"}))
                .hasMessageContaining("--runs takes a value");
    }

    @Test
    void everyRunRunsAndSaysItsLineAndAFailedOrBrokenRunFailsTheLot() {
        var options = FaultSuite.Options.parse(new String[] {"--quick", "--runs", "3", "--seed", "40"});
        var lines = new ArrayList<String>();
        var seeds = new ArrayList<Long>();

        boolean passed = SeededRuns.run(options, one -> {
            seeds.add(one.seed());
            if (one.seed() == 41) {
                throw new IllegalStateException("cassandra node 2 did not start\nits log ...");
            }
            return new SeededRuns.Finished("faults: 100 acknowledged, " + (one.seed() == 42 ? 1 : 0) + " lost", one.seed() != 42);
        }, lines::add);

        assertThat(passed).isFalse();
        assertThat(seeds).containsExactly(40L, 41L, 42L);
        assertThat(lines).containsExactly(
                "seed 40: faults: 100 acknowledged, 0 lost",
                "seed 41: did not finish: IllegalStateException: cassandra node 2 did not start",
                "seed 42: faults: 100 acknowledged, 1 lost",
                "runs: 3, passed 1, failed 2 (seeds 41, 42)");
    }

    @Test
    void allPassedPassesTheLot() {
        var options = FaultSuite.Options.parse(new String[] {"--quick", "--runs", "2"});
        var lines = new ArrayList<String>();

        assertThat(SeededRuns.run(options, one -> new SeededRuns.Finished("faults: 9 acknowledged", true), lines::add))
                .isTrue();
        assertThat(lines).last().isEqualTo(SeededRuns.total(2, List.of()));
        assertThat(lines.get(2)).isEqualTo("runs: 2, passed 2, failed 0");
    }
}
