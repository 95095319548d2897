package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which faults come together, from the seed; and how the report tells which ones overlapped. No backing service. */
class FaultScheduleTest {

    private static final Duration FULL = Duration.ofMinutes(12);

    @Test
    void theFullRunStrikesSomeFaultsTogetherEachPairBreakingDifferentThings() {
        for (long seed = 1; seed <= 20; seed++) {
            var plan = Fault.plan(seed, FULL, false);

            var schedule = FaultSchedule.of(plan, seed, false);

            assertThat(schedule.stream().flatMap(step -> step.faults().stream()).toList())
                    .as("every fault of the plan, in its order").isEqualTo(plan);
            var pairs = schedule.stream().filter(step -> step.second() != null).toList();
            assertThat(pairs).as("seed " + seed + ": some overlap").isNotEmpty();
            assertThat(schedule.subList(0, schedule.size() - 1)).as("seed " + seed + ": not all")
                    .anyMatch(step -> step.second() == null);
            for (var pair : pairs) {
                assertThat(FaultSchedule.canOverlap(pair.first(), pair.second())).as(pair.toString()).isTrue();
                assertThat(pair.after()).as("struck while the first holds: " + pair)
                        .isLessThan(pair.first().length.isZero() ? Duration.ofSeconds(1) : pair.first().length);
            }
            assertThat(schedule.get(schedule.size() - 1)).as("the failover last, alone")
                    .isEqualTo(FaultSchedule.Step.alone(Fault.POSTGRES_FAILOVER));
            assertThat(FaultSchedule.of(plan, seed, false)).as("the same seed, the same schedule").isEqualTo(schedule);
        }
    }

    @Test
    void theQuickRunHasItsFaultsOneAtATime() {
        var plan = Fault.plan(20261201, Duration.ofSeconds(100), true);

        assertThat(FaultSchedule.of(plan, 20261201, true)).hasSize(4).allMatch(step -> step.second() == null);
    }

    @Test
    void faultsOverlapOnlyWhenTheyBreakDifferentThings() {
        assertThat(FaultSchedule.canOverlap(Fault.CASSANDRA_NODE_KILLED, Fault.API_FROZEN)).isTrue();
        assertThat(FaultSchedule.canOverlap(Fault.POSTGRES_KILLED, Fault.CASSANDRA_PARTITIONED)).isTrue();
        assertThat(FaultSchedule.canOverlap(Fault.API_KILLED, Fault.API_FROZEN)).as("both API processes down").isFalse();
        assertThat(FaultSchedule.canOverlap(Fault.CASSANDRA_NODE_KILLED, Fault.CASSANDRA_NODE_FROZEN))
                .as("two nodes of three: no quorum").isFalse();
        assertThat(FaultSchedule.canOverlap(Fault.CASSANDRA_PARTITIONED, Fault.API_PARTITIONED_FROM_POSTGRES))
                .as("one nftables table, healed whole").isFalse();
        assertThat(FaultSchedule.canOverlap(Fault.POSTGRES_KILLED, Fault.API_PARTITIONED_FROM_POSTGRES)).isFalse();
        assertThat(FaultSchedule.canOverlap(Fault.INDEXER_STOPPED, Fault.POSTGRES_FAILOVER)).isFalse();
    }

    @Test
    void theReportNamesTheFaultsEachOverlappedInTheOrderTheyWereStruck() {
        long s = 1_000_000_000L;
        // as the suite records them: a pair as each heals, the second struck first to heal
        var faults = FaultReport.inOrder(List.of(
                new Fault.Injected(Fault.API_FROZEN, "api-1", 104 * s, 112 * s),
                new Fault.Injected(Fault.CASSANDRA_NODE_KILLED, "cassandra node 2", 100 * s, 160 * s),
                new Fault.Injected(Fault.POSTGRES_KILLED, "postgres", 180 * s, 187 * s)));

        assertThat(faults).extracting(Fault.Injected::fault)
                .containsExactly(Fault.CASSANDRA_NODE_KILLED, Fault.API_FROZEN, Fault.POSTGRES_KILLED);
        assertThat(FaultReport.overlapping(faults, 0)).isEqualTo("2");
        assertThat(FaultReport.overlapping(faults, 1)).isEqualTo("1");
        assertThat(FaultReport.overlapping(faults, 2)).isEqualTo("-");
    }
}
