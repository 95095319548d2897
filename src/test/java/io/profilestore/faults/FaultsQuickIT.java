package io.profilestore.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The fault suite's quick variant, on every build: a Cassandra node killed, an API process killed, another frozen
 * past its lease and PostgreSQL killed (kill -9) under load, on a three-node cluster of its own, with a phase of mostly merges
 * and unmerges; nothing acknowledged is lost, no invariant is broken (every profile's and user's
 * final user explained by the history), every unknown outcome is settled, and the index ends equal to Cassandra.
 * It has a stack of its own, so it runs beside the other test classes: in one fork while the others go on in theirs
 * (the default), or beside the one-at-a-time classes of a single fork ({@code -Dit.forks=1}).
 */
@Execution(ExecutionMode.CONCURRENT)
class FaultsQuickIT {

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void underFourFaultsNoAcknowledgedChangeIsLostAndNothingIsLeftWrong() throws Exception {
        var outcome = FaultSuite.run(FaultSuite.Options.parse(new String[] {"--quick"}));

        System.out.println(outcome.lastLine());
        assertThat(outcome.faults()).as("every fault of the plan was injected").hasSize(4);
        // a history long enough for the checks to mean something, not a rate (rates are the benchmark's): seven CI
        // runs acknowledged 960 to 1,520 changes, fewer when the other test classes beside it take the cores
        assertThat(outcome.acknowledged()).as("the workload got changes through").isGreaterThan(500);
        assertThat(outcome.lost()).as("lost acknowledged changes").isZero();
        // users' invariants among them (HistoryCheckerUsersTest)
        assertThat(outcome.history().violations()).as("invariant violations").isEmpty();
        assertThat(outcome.violations()).as("disagreements check-tables left").isZero();
        assertThat(outcome.drift()).as("profiles whose index differs from Cassandra").isZero();
        assertThat(outcome.unexplained()).as("groups of profiles no choice of the unknown outcomes explains").isZero();
        assertThat(outcome.undecided()).as("groups the checker could not decide within its budget (no proof for them)").isZero();
        assertThat(history(outcome, "merge")).as("merges the workload got through").isGreaterThan(100);
        assertThat(history(outcome, "unmerge")).as("unmerges the workload got through").isGreaterThan(50);
        assertThat(Path.of("target/faults-quick/history.jsonl")).exists();
        assertThat(Files.readString(Path.of("target/faults-quick/README.md"))).contains(outcome.lastLine());
    }

    /** How many requests of this kind were acknowledged, as the report counts them. */
    private static long history(FaultSuite.Outcome outcome, String op) throws Exception {
        return Files.readAllLines(Path.of("target/faults-quick/history.jsonl")).stream()
                .filter(line -> line.contains("\"op\":\"" + op + "\"") && line.contains("\"outcome\":\"ok\"")).count();
    }
}
