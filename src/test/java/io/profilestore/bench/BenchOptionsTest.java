package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The options a size series gives each of its runs: --quick's durations, the series' size, and the reuse of data. */
class BenchOptionsTest {

    private static Bench.Options parse(String... args) {
        return Bench.Options.parse(args);
    }

    @Test
    void aQuickRunImportsItsProfilesAgainUnlessToldToReuseThemInEitherOrder() {
        assertThat(parse().reuse()).as("a full run").isTrue();
        assertThat(parse("--quick").reuse()).isFalse();
        assertThat(parse("--quick", "--reuse").reuse()).isTrue();
        assertThat(parse("--reuse", "--quick").reuse()).isTrue();
    }

    @Test
    void aQuickRunOfASeriesKeepsTheSizeItIsGiven() {
        var run = parse("--quick", "--only", "reads,search", "--profiles", "4000", "--reuse", "--out", "/tmp/s/4000");

        assertThat(run.profiles()).isEqualTo(4_000);
        assertThat(run.duration()).as("--quick's").isEqualTo(parse("--quick").duration());
        assertThat(run.out()).hasToString("/tmp/s/4000");
    }
}
