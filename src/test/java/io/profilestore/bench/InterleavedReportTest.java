package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

class InterleavedReportTest {

    private static final Load.Window WINDOW = new Load.Window(0, 30_000_000_000L, new AtomicLongArray(30));

    /** A scenario whose every success took {@code millis}. */
    private static Load.Result took(String scenario, double millis) {
        var latencies = Load.histogram();
        for (int i = 0; i < 100; i++) {
            latencies.recordValue((long) (millis * 1000));
        }
        return new Load.Result(scenario, 50, 50, latencies, latencies.copy(), 0, 0, new TreeMap<>(), null, WINDOW);
    }

    @Test
    void eachEndpointAgainstItsBackendAndHttpInTheSameWindowWithItsOwnBound() {
        var get = InterleavedReport.GET_INTERLEAVED;
        var prefix = InterleavedReport.SEARCHES_INTERLEAVED.get(0);
        var results = new ArrayList<>(List.of(
                took(get.service(), 1.0), took(get.backend(), 0.5), took(get.http(), 0.4),
                took(prefix.service(), 4.0), took(prefix.backend(), 2.5), took(prefix.http(), 0.5)));
        var md = new StringBuilder();

        InterleavedReport.append(md, results);

        assertThat(md.toString())
                .contains("| GET /v1/profiles/{pid} | Cassandra read as the service does it | 1.00 ms | 0.50 ms | 0.40 ms"
                        + " | 1.200× | ≤ 1.3× | yes |")
                .contains("| GET /v1/search surname prefix | raw Elasticsearch surname prefix query | 4.00 ms | 2.50 ms"
                        + " | 0.50 ms | 1.400× | ≤ 1.2× | **no** |")
                .doesNotContain("raw Cassandra read")
                .doesNotContain("exact phone");
    }

    @Test
    void aBackendWithNoSuccessesHasNoRow() {
        var get = InterleavedReport.GET_INTERLEAVED;
        var none = Load.histogram();
        var failed = new Load.Result(get.backend(), 50, 0, none, none.copy(), 100, 0, new TreeMap<>(), "refused", WINDOW);
        var md = new StringBuilder();

        InterleavedReport.append(md, List.of(took(get.service(), 1.0), failed, took(get.http(), 0.4)));

        assertThat(md.toString()).doesNotContain("Infinity").isEmpty();
    }

    @Test
    void nothingInterleavedNoSection() {
        var md = new StringBuilder();

        InterleavedReport.append(md, List.of(took("GET /v1/profiles/{pid}", 1.0)));

        assertThat(md.toString()).isEmpty();
    }
}
