package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The benchmark itself, small and short, so that it cannot rot: every scenario runs and answers without errors. */
class BenchQuickTest {

    @Test
    void theQuickBenchmarkRunsEveryScenarioAndWritesItsReport() throws Exception {
        var options = Bench.Options.parse(new String[] {"--quick", "--out", "target/bench-quick"});

        var report = Bench.run(options);

        String markdown = Files.readString(report);
        for (String scenario : new String[] {"bulk import", "single creates", "HTTP alone", "GET /v1/profiles/{pid}",
                "raw Cassandra read", "PostgreSQL baseline: read by pk", "PUT /v1/profiles/{pid} with If-Match",
                "90/10 read/write mix", "GET /v1/search surname prefix", "raw Elasticsearch surname prefix query",
                "GET /v1/search exact phone", "PostgreSQL baseline: exact phone", "index lag"}) {
            assertThat(markdown).contains("| " + scenario);
        }
        assertThat(markdown.lines().filter(line -> line.startsWith("| ") && !line.startsWith("| scenario")
                && !line.startsWith("| target") && !line.startsWith("| endpoint") && line.split("\\|").length == 11))
                .as("every scenario ran without errors").allMatch(line -> line.trim().endsWith("| 0 |"));
        assertThat(Path.of("target/bench-quick/report.html")).content().contains("<svg");
        assertThat(Path.of("target/bench-quick/get-v1-profiles-pid.hgrm")).exists();
    }
}
