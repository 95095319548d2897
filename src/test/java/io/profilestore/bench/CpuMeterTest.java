package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The benchmark's CPU meter reads /proc right: a busy thread of ours is the service's, and no tick goes missing. */
class CpuMeterTest {

    @Test
    void aBusyThreadCountsAsTheServiceAndTheGroupsAddUpToTheMachine() throws Exception {
        var spinning = new AtomicBoolean(true);
        try (var meter = CpuMeter.start()) {
            assertThat(meter).as("this machine has /proc").isNotNull();
            long from = System.nanoTime();
            var busy = new Thread(() -> {
                long sink = 0;
                while (spinning.get()) {
                    sink += System.nanoTime() % 7;
                }
                assertThat(sink).isNotNegative();
            }, "dw-busy-request");
            busy.start();
            Awaitility.await("four samples").atMost(Duration.ofSeconds(20))
                    .until(() -> meter.between(from, System.nanoTime() - 1_000_000_000L).size() >= 4);
            spinning.set(false);
            busy.join();

            var samples = meter.between(from, System.nanoTime() - 1_000_000_000L);
            double service = average(samples, "service");
            // the machine may be busy with other work, so the thread gets what it gets; but it is the service's
            assertThat(service).as("a thread spinning is CPU of the service's").isGreaterThan(0.1)
                    .isGreaterThan(2 * (average(samples, "load") + average(samples, "gc") + average(samples, "jit")));
            int cores = Runtime.getRuntime().availableProcessors();
            for (var sample : samples) {
                double all = CpuMeter.GROUPS.stream().mapToDouble(group -> sample.cores().get(group)).sum();
                assertThat(all).as("every group of a second, idle and steal included: the machine's cores, %s", sample)
                        .isBetween(0.8 * cores, 1.2 * cores);
            }
        } finally {
            spinning.set(false);
        }
    }

    private static double average(java.util.List<CpuMeter.Second> samples, String group) {
        return samples.stream().mapToDouble(s -> s.cores().get(group)).average().orElseThrow();
    }

    @Test
    void threadsOfTheJvmAreGroupedByName() {
        assertThat(CpuMeter.groupOfThread("dw-42 - PUT /v1/profiles/x")).isEqualTo("service");
        assertThat(CpuMeter.groupOfThread("httpclient-dispatch-1")).isEqualTo("load");
        assertThat(CpuMeter.groupOfThread("G1 Conc#0")).isEqualTo("gc");
        assertThat(CpuMeter.groupOfThread("ZWorker#0")).isEqualTo("gc");
        assertThat(CpuMeter.groupOfThread("C2 CompilerThre")).isEqualTo("jit");
    }
}
