package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The size series puts each size's results together: a table and a plot of p50 and p99 against the size. */
class SizeSeriesTest {

    @TempDir
    Path dir;

    /** A run's results as its report writes them: one open-loop scenario of these latencies (µs), and the import. */
    private Path run(int profiles, long p50Micros, long p99Micros, long errors) throws Exception {
        var latencies = Load.histogram();
        for (int i = 0; i < 98; i++) {
            latencies.recordValue(p50Micros);
        }
        latencies.recordValue(p99Micros);
        latencies.recordValue(p99Micros);
        var get = new Load.Result("GET /v1/profiles/{pid}", 500, 500, latencies, latencies.copy(), errors, 0,
                new TreeMap<>(), null, null);
        var imported = new Load.Result("import command, given ids", 0, 12_000, Load.histogram(), 0, null);
        var options = BenchOptions.parse(new String[] {"--profiles", String.valueOf(profiles)});
        Path run = dir.resolve(profiles + "-profiles");
        Files.createDirectories(run);
        Files.writeString(run.resolve(Report.RESULTS_JSON), Report.json(options, List.of(imported, get)));
        return run;
    }

    @Test
    void eachScenarioHasItsP50AndP99AtEachSizeSmallestFirst() throws Exception {
        var runs = List.of(run(1_000_000, 900, 3_000, 0), run(100_000, 800, 2_000, 2));

        var series = SizeSeries.read(runs);

        assertThat(series.get("GET /v1/profiles/{pid}")).extracting(SizeSeries.Point::profiles)
                .containsExactly(100_000L, 1_000_000L);
        String markdown = SizeSeries.markdown("./bench/run --sizes 100000,1000000", runs, series);
        assertThat(markdown).contains("| scenario | 100,000 | 1,000,000 |")
                .contains("| GET /v1/profiles/{pid} | 0.80 / 2.00 (2 errors) | 0.90 / 3.00 |")
                .as("a rate alone has no latencies to plot").doesNotContain("| import command")
                .contains("[1000000-profiles](1000000-profiles/README.md)");
    }

    @Test
    void thePlotHasALineForP50AndOneForP99ThroughEverySize() throws Exception {
        var series = SizeSeries.read(List.of(run(100_000, 800, 2_000, 0), run(300_000, 850, 2_500, 0),
                run(1_000_000, 900, 3_000, 0)));

        String html = SizeSeries.html(series, "the table");

        assertThat(html).doesNotContain("<script").contains("GET /v1/profiles/{pid}").doesNotContain(">import command");
        assertThat(html.split("<svg", -1)).as("one plot, for the one scenario with latencies").hasSize(2);
        var lines = html.split("<polyline", -1);
        assertThat(lines).as("p50 and p99").hasSize(3);
        assertThat(lines[1].substring(0, lines[1].indexOf("/>")).split(",", -1)).as("three points: 3 pairs")
                .hasSize(4);
        assertThat(html).contains(">100,000</text>").contains(">1,000,000</text>");
    }
}
