package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.profilestore.bench.CpuMeter.Group;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The benchmark's CPU meter reads /proc right and puts samples together by how much of each a span covers. */
class CpuMeterTest {

    @Test
    void aThreadOfTheLoadIsMeteredAsTheJvmItselfCountsIt() throws Exception {
        var threads = ManagementFactory.getThreadMXBean();
        var spinning = new AtomicBoolean(true);
        // what the spinner did comes back to this thread: a failure in it fails the test instead of being lost
        var spin = new FutureTask<Long>(() -> {
            long turns = 0;
            while (spinning.get()) {
                turns++;
            }
            return turns;
        });
        var spinner = new Thread(spin, "bench-load-spin");
        try (var meter = CpuMeter.start()) {
            assertThat(meter).as("this machine has /proc").isNotNull();
            spinner.start();
            long from = meter.sampleNow();
            long cpuFrom = threads.getThreadCpuTime(spinner.getId());
            // however busy the machine, until the spinner has had 0.6 s of CPU by the JVM's own count
            Awaitility.await("the spinner's CPU").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> threads.getThreadCpuTime(spinner.getId()) - cpuFrom > 600_000_000L);
            long cpuTo = threads.getThreadCpuTime(spinner.getId());
            long to = meter.sampleNow();

            var usage = meter.between(from, to);
            double spun = (cpuTo - cpuFrom) / 1e9;
            double metered = usage.cores().get(Group.LOAD) * usage.seconds();
            assertThat(metered).as("the load's CPU seconds, the spinner's by the JVM: %.2f", spun)
                    .isCloseTo(spun, within(0.15 * spun + 0.05));
            double all = 0;
            for (var group : Group.values()) {
                all += usage.cores().get(group);
            }
            assertThat(all).as("every group, idle and steal included: the machine's CPUs").isCloseTo(meter.cpus(),
                    within(0.05 * meter.cpus()));
            assertThat(meter.failedSamples()).isZero();
            spinning.set(false);
            assertThat(spin.get(10, TimeUnit.SECONDS)).as("turns of the spinner's loop").isPositive();
        } finally {
            spinning.set(false);
            spinner.join();
        }
    }

    @Test
    void aSampleCountsByTheShareOfItInsideTheSpan() {
        long second = 1_000_000_000L;
        // two CPUs: 200 ticks a second between them
        var busy = new CpuMeter.Sample(0, second, Map.of(Group.SERVICE, 100L, Group.IDLE, 100L), 200, 40, Set.of(Group.CASSANDRA));
        var quiet = new CpuMeter.Sample(second, 3 * second, Map.of(Group.IDLE, 400L), 400, 0, Set.of(Group.CASSANDRA));

        // half of the busy second, and all of the quiet two
        var usage = CpuMeter.usage(List.of(busy, quiet), second / 2, 3 * second, 2);

        assertThat(usage.seconds()).isCloseTo(2.5, within(1e-9));
        assertThat(usage.cores().get(Group.SERVICE)).as("50 ticks in 2.5 s").isCloseTo(0.2, within(1e-9));
        assertThat(usage.cores().get(Group.IDLE)).as("450 ticks in 2.5 s").isCloseTo(1.8, within(1e-9));
        assertThat(usage.cores().values().stream().mapToDouble(Double::doubleValue).sum()).as("every group: the machine")
                .isCloseTo(2, within(1e-9));
        assertThat(usage.pausedMillisPerSecond()).as("half the busy second's 40 ms, in 2.5 s").isCloseTo(8, within(1e-9));
        assertThat(usage.of(Group.CASSANDRA)).isPresent();
        assertThat(usage.of(Group.ELASTICSEARCH)).as("no Elasticsearch on the machine").isEmpty();
        assertThat(CpuMeter.usage(List.of(busy, quiet), 4 * second, 5 * second, 2).seconds()).as("no sample there").isZero();
    }

    @Test
    void threadsOfTheJvmAreGroupedByTheNamesProcShows() {
        // as /proc/<pid>/task/<tid>/comm shows them: 15 characters at most
        var names = Map.ofEntries(Map.entry("dw-42", Group.SERVICE), Map.entry("profile-store-i", Group.SERVICE),
                Map.entry("elasticsearch-r", Group.SERVICE), Map.entry("pool-3-thread-1", Group.SERVICE),
                Map.entry("java", Group.SERVICE), Map.entry("bench-load-12", Group.LOAD),
                Map.entry("bench-client-1", Group.LOAD), Map.entry("bench-cpu-meter", Group.LOAD),
                Map.entry("GC Thread#0", Group.GC), Map.entry("G1 Conc#0", Group.GC), Map.entry("G1 Refine#1", Group.GC),
                Map.entry("VM Thread", Group.GC), Map.entry("ZWorker#0", Group.GC), Map.entry("ZDirector", Group.GC),
                Map.entry("C2 CompilerThre", Group.JIT), Map.entry("C1 CompilerThre", Group.JIT));
        names.forEach((comm, group) -> assertThat(CpuMeter.groupOfThread(comm)).as(comm).isEqualTo(group));
    }
}
