package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/** The parts of a run's report that are arithmetic on its results. */
class ReportTest {

    @Test
    void theContentionSectionCountsEachAnswerAndTheWinnersLatency() {
        var latencies = Load.histogram();
        var all = Load.histogram();
        for (int i = 0; i < 60; i++) {
            latencies.recordValue(8_000);
            all.recordValue(8_000);
        }
        for (int i = 0; i < 40; i++) {
            all.recordValue(2_000);
        }
        var statuses = new TreeMap<Integer, Long>();
        statuses.put(200, 60L);
        statuses.put(409, 10L);
        statuses.put(412, 28L);
        var result = new Load.Result(Report.CONTENTION, 100, 60, latencies, all, 1, 1, statuses, null,
                new Load.Window(0, TimeUnit.SECONDS.toNanos(4), new AtomicLongArray(4)));

        String section = Report.contention(result);

        assertThat(section).startsWith("## Contention")
                .contains("| 200 written | 60 | 15.0 | 60.0 % |")
                .contains("| 409 locked | 10 | 2.5 | 10.0 % |")
                .contains("| 412 stale version | 28 | 7.0 | 28.0 % |")
                .contains("| errors | 1 | 0.3 | 1.0 % |")
                .contains("| timeouts | 1 | 0.3 | 1.0 % |")
                .contains("The writes that won (200): p50 8.00 ms");
    }

    @Test
    void theRefusalsSectionSaysWhatTheServiceAnsweredAndHowOften() {
        var refused = new TreeMap<String, BenchHttp.Refusals>();
        refused.put("POST /v1/profiles 503 cassandra-unavailable", new BenchHttp.Refusals(2, "a | b"));
        refused.put("PUT /v1/profiles/{id} 412 stale-version", new BenchHttp.Refusals(1_234, "read it again"));

        String section = Report.refusals(refused);

        assertThat(section).startsWith(Report.REFUSALS)
                .contains("| POST /v1/profiles 503 cassandra-unavailable | 2 | a \\| b |")
                .contains("| PUT /v1/profiles/{id} 412 stale-version | 1,234 | read it again |");
    }
}
