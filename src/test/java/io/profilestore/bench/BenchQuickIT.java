package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.stack.StackSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark itself, small and short, so that it cannot rot: every scenario runs and answers without errors. */
class BenchQuickIT {

    /** Every scenario the benchmark runs, in the order of its report (each the start of the row's name). */
    static final List<String> SCENARIOS = List.of("import command", "raw Cassandra writes", "bulk import",
            "single creates", "HTTP alone",
            "GET /v1/profiles/{pid}", "raw Cassandra read", "PostgreSQL baseline: read by pk",
            InterleavedReport.GET_INTERLEAVED.service(), InterleavedReport.GET_INTERLEAVED.backend(),
            InterleavedReport.GET_AGAINST_RAW_READ.backend(), InterleavedReport.READS_HTTP,
            "PUT /v1/profiles/{pid} with If-Match", Report.POSTGRES_UPDATE, EventDelay.SCENARIO, Report.CONTENTION,
            "90/10 read/write mix", "GET /v1/search surname prefix", "raw Elasticsearch surname prefix query",
            "PostgreSQL baseline: surname prefix", "GET /v1/search exact phone", "raw Elasticsearch exact phone query",
            "PostgreSQL baseline: exact phone", "GET /v1/search q, a name as typed", "raw Elasticsearch q query",
            InterleavedReport.SEARCHES_INTERLEAVED.get(0).service(), InterleavedReport.SEARCHES_INTERLEAVED.get(0).backend(),
            InterleavedReport.SEARCHES_INTERLEAVED.get(1).service(), InterleavedReport.SEARCHES_INTERLEAVED.get(1).backend(),
            InterleavedReport.SEARCHES_INTERLEAVED.get(2).service(), InterleavedReport.SEARCHES_INTERLEAVED.get(2).backend(),
            InterleavedReport.SEARCHES_HTTP,
            "GET /v1/profiles/{pid}/matches", "raw Elasticsearch matches query", Report.SEARCHES_AS_PLATFORM, Report.SEARCHES_AS_OPERATOR, "index lag");

    /** One row of the report's results table: the scenario and its errors and timeouts columns. */
    record Row(String scenario, String errors, String timeouts) {
    }

    /** The rows of the results table: from its header ({@code | scenario | ... | errors | timeouts |}) to the first line after it that is no row. */
    static List<Row> resultRows(String markdown) {
        var lines = markdown.lines().toList();
        int header = 0;
        while (header < lines.size() && !lines.get(header).startsWith("| scenario |")) {
            header++;
        }
        assertThat(header).as("the report has a results table:%n%s", markdown).isLessThan(lines.size());
        var columns = cells(lines.get(header));
        assertThat(columns).as("the results table's columns").startsWith("scenario").contains("all p99", "errors", "timeouts");
        var rows = new ArrayList<Row>();
        for (String line : lines.subList(header + 2, lines.size())) {
            if (!line.startsWith("|")) {
                break;
            }
            var cells = cells(line);
            assertThat(cells).as("cells of %s", line).hasSameSizeAs(columns);
            rows.add(new Row(cells.get(0), cells.get(columns.indexOf("errors")), cells.get(columns.indexOf("timeouts"))));
        }
        return rows;
    }

    private static List<String> cells(String line) {
        String inner = line.strip();
        return Arrays.stream(inner.substring(1, inner.length() - 1).split("\\|", -1)).map(String::strip).toList();
    }

    @Test
    void theQuickBenchmarkRunsEveryScenarioAndWritesItsReport() throws Exception {
        // the tests' stack: PostgreSQL as the environment starts it (./bench/run makes it durable)
        var options = BenchOptions.parse(StackSettings.fromEnvironment().postgresDurable()
                ? new String[] {"--quick", "--out", "target/bench-quick"}
                : new String[] {"--quick", "--out", "target/bench-quick", "--postgres-fast"});

        var report = Bench.run(options);

        String markdown = Files.readString(report);
        var rows = resultRows(markdown);
        assertThat(rows).as("one row per scenario, in order").hasSameSizeAs(SCENARIOS);
        for (int i = 0; i < SCENARIOS.size(); i++) {
            assertThat(rows.get(i).scenario()).as("row %d", i + 1).startsWith(SCENARIOS.get(i));
        }
        // when one did, the service's refusals say what it answered (a status alone did not, once)
        int refusals = markdown.indexOf(Report.REFUSALS);
        int end = markdown.indexOf("\n## ", refusals + 1);
        String refused = refusals < 0 ? "none" : markdown.substring(refusals, end < 0 ? markdown.length() : end);
        assertThat(rows).as("every scenario ran without errors or timeouts; the answers of 400 and above: %s", refused)
                .allSatisfy(row -> {
            assertThat(row.errors()).as("errors of %s", row.scenario()).isEqualTo("0");
            assertThat(row.timeouts()).as("timeouts of %s", row.scenario()).isEqualTo("0");
        });
        assertThat(markdown).as("the contention's answers").contains("## Contention")
                .containsPattern("\\| 200 written \\| [1-9][\\d,]* \\|").containsPattern("\\| 412 stale version \\| [1-9]");
        assertThat(refused).as("the refusals, by request, status and problem type")
                .containsPattern("\\| PUT /v1/profiles/\\{id} 412 stale-version \\| [1-9]");
        assertThat(markdown).as("the overhead measured interleaved, each endpoint a row")
                .containsPattern("\\| GET /v1/profiles/\\{pid} \\| Cassandra read as the service does it \\| \\d+\\.\\d\\d ms"
                        + " \\| \\d+\\.\\d\\d ms \\| \\d+\\.\\d\\d ms \\| \\d+\\.\\d{3}× \\|")
                .containsPattern("\\| GET /v1/profiles/\\{pid} \\| raw Cassandra read, QUORUM \\| \\d+\\.\\d\\d ms \\|")
                .containsPattern("\\| GET /v1/search q, a name as typed \\| raw Elasticsearch q query \\| \\d+\\.\\d\\d ms \\|")
                .containsPattern("the service's own time for a GET, .*: mean \\d+\\.\\d{3} ms over [1-9][\\d,]* requests")
                .containsPattern("the service's JIT was waited for .*: \\d+\\.\\d s");
        assertThat(markdown).as("the audit's cost is reported").containsPattern("Operator ÷ platform: \\d+\\.\\d\\d");
        assertThat(markdown).as("the import beside raw writes, and verified")
                .containsPattern("Import ÷ raw: \\d+\\.\\d\\d").contains("0 different, 0 missing");
        assertThat(markdown).as("how many planted duplicates matches find").containsPattern("\\*\\*Recall\\*\\*: [\\d,]+ of [1-9]");
        assertThat(Path.of("target/bench-quick/report.html")).content().contains("<svg");
        assertThat(Path.of("target/bench-quick/get-v1-profiles-pid.hgrm")).exists();
        assertThat(markdown).as("where the CPU went: each scenario, the PUT's slowest seconds")
                .containsPattern("\\| PUT /v1/profiles/\\{pid} with If-Match \\| \\d+\\.\\d\\d \\|")
                .containsPattern("\\| PUT /v1/profiles/\\{pid} with If-Match, second \\d+: \\d+\\.\\d ms \\|");
        assertThat(Files.readAllLines(Path.of("target/bench-quick/put-v1-profiles-pid-with-if-match.seconds.csv")))
                .as("the PUT's samples, one by one").hasSizeGreaterThan(2)
                .first().asString().startsWith("sample_start_s,sample_end_s,service,load,");
    }
}
