package io.profilestore.bench;

import io.profilestore.stack.StackSettings;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Writes a run's results: {@code README.md} (the table, the targets, the overhead against the backends alone,
 * the command and the machine, where the CPU went), {@code report.html} (latency by percentile, as SVG, no script) and each
 * scenario's percentile distribution ({@code *.hgrm}, HdrHistogram's text form, in milliseconds).
 */
final class Report {

    /** The targets: a percentile and a bound in ms, or a rate to reach. */
    record Target(String scenario, double percentile, double maxMillis, double minRate, String text) {

        /**
         * Whether a result is this target's scenario: its name, alone or followed by a comma and what the run adds
         * ("bulk import, POST ..."); never a longer route ("GET /v1/profiles/{pid}/matches" is not the GET's).
         */
        boolean covers(String result) {
            return result.equals(scenario) || result.startsWith(scenario + ",");
        }
    }

    static final List<Target> TARGETS = List.of(
            new Target("GET /v1/profiles/{pid}", 99, 10, 0, "p99 ≤ 10 ms at 500/s"),
            new Target("PUT /v1/profiles/{pid} with If-Match", 99, 25, 0, "p99 ≤ 25 ms at 100/s"),
            new Target("PUT /v1/profiles/{pid} with If-Match", 99.9, 50, 0, "p99.9 ≤ 50 ms at 100/s"),
            new Target("GET /v1/search surname prefix", 99, 30, 0, "p99 ≤ 30 ms at 50/s"),
            new Target("GET /v1/search exact phone", 99, 30, 0, "p99 ≤ 30 ms at 50/s"),
            new Target("GET /v1/search q, a name as typed", 99, 30, 0, "p99 ≤ 30 ms at 50/s"),
            new Target(IndexLag.SCENARIO, 99, 1200, 0, "p99 ≤ 1.2 s"),
            new Target(EventDelay.SCENARIO, 99, 1000, 0, "p99 ≤ 1 s at 100 changes/s"),
            new Target("bulk import", 0, 0, 3000, "≥ 3,000 profiles/s"),
            new Target("import command", 0, 0, 10_000, "≥ 10,000 profiles/s"),
            new Target("GET /v1/profiles/{pid}/matches", 99, 30, 0, "p99 ≤ 30 ms at 50/s"));

    /** The same surname searches back to back by {@link #SEARCH_CALLERS} callers, with a platform's key and an operator's. */
    static final String SEARCHES_AS_PLATFORM = "surname searches, closed loop, a platform's key";
    static final String SEARCHES_AS_OPERATOR = "surname searches, closed loop, an operator's key (audited)";
    static final int SEARCH_CALLERS = 8;

    /** An operator's look-ups, each audited, at least this share of a platform's rate. */
    static final double OPERATOR_SHARE = 0.8;

    /** An endpoint's median at most this many times its backend call's alone, plus HTTP (issue 31: a GET by pid). */
    static final double OVERHEAD = 1.3;

    /** A search's median at most this many times the raw Elasticsearch query's, plus HTTP. */
    static final double SEARCH_OVERHEAD = 1.2;

    /** The PostgreSQL-only design doing the PUT's work (PostgresBaseline.update). */
    static final String POSTGRES_UPDATE = "PostgreSQL baseline: update as the PUT does (lock row, version, outbox)";

    /** The contention scenario (Contention): a few hot profiles, many clients. */
    static final String CONTENTION = "PUT of " + Contention.HOT_PROFILES + " hot profiles by "
            + Contention.HOT_PROFILES * Contention.CLIENTS_PER_PROFILE + " clients (contention)";

    /** A request and its answer through the same client and server, touching no backend: what "plus HTTP" is. */
    static final String HTTP_FLOOR = "HTTP alone: GET /ping on the admin port, no backend";

    /** Each endpoint and the backend call it comes down to, for the overhead. */
    static final Map<String, String> BASELINES = new TreeMap<>(Map.of(
            "GET /v1/profiles/{pid}", "raw Cassandra read, QUORUM",
            "GET /v1/search surname prefix", "raw Elasticsearch surname prefix query",
            "GET /v1/search exact phone", "raw Elasticsearch exact phone query",
            "GET /v1/search q, a name as typed", "raw Elasticsearch q query"));

    private Report() {
    }

    static Path write(BenchOptions options, StackShape shape, List<Load.Result> results, List<String> notes,
            List<String> sections, CpuMeter cpu, PostgresMeter postgres) throws IOException {
        Path dir = options.out();
        Files.createDirectories(dir);
        var md = new StringBuilder();
        md.append("# profile-store benchmark, ").append(ZonedDateTime.now().toLocalDate()).append("\n\n");
        // the JVM options a run was given (GC logs, JFR) are part of its command
        var javaOptions = System.getenv().getOrDefault("BENCH_JAVA_OPTS", "").strip();
        md.append("Command: `").append(javaOptions.isEmpty() ? "" : "BENCH_JAVA_OPTS='" + javaOptions + "' ")
                .append("./bench/run ").append(options.command()).append("` at commit `").append(git())
                .append("`; ").append(String.format("%,d", options.profiles())).append(" profiles (seed ")
                .append(options.seed()).append("), each scenario ").append(options.warmup().toSeconds())
                .append(" s of warm-up (not counted) and ").append(options.duration().toSeconds()).append(" s measured")
                .append(options.scale() == 1 ? "" : ", rates scaled by " + options.scale()).append(".\n\n");
        md.append("Machine: ").append(machine()).append("\n\n");
        md.append(shape.markdown()).append('\n');
        md.append("Open loop: requests start at the target rate whatever the answers do, and latency counts from when a ")
                .append("request was due (corrected for coordinated omission). Latencies in milliseconds. `achieved`: ")
                .append("successful answers (2xx) that came within the measured window, per second; p50 to max: the ")
                .append("successes; `all p99`: every request of the window, errors and timeouts at the time they took; ")
                .append("`errors`: failures and answers other than 2xx (and other than the 409 and 412 the contention ")
                .append("scenario expects); `timeouts`: requests that gave up waiting, or had no answer ")
                .append(Load.PATIENCE.toMinutes()).append(" minutes after the run (counted then).\n\n");
        md.append("| scenario | target rate /s | achieved /s | p50 | p90 | p99 | p99.9 | max | all p99 | errors | timeouts |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (var r : results) {
            var h = r.latencies();
            md.append(String.format("| %s | %s | %,.0f | %s | %s | %s | %s | %s | %s | %d | %d |%n", r.scenario(),
                    r.targetRate() == 0 ? "(closed loop)" : String.format("%,.0f", r.targetRate()), r.throughput(),
                    ms(h, 50), ms(h, 90), ms(h, 99), ms(h, 99.9), h.getTotalCount() == 0 ? "-" : ms(h.getMaxValue()),
                    ms(r.all(), 99), r.errors(), r.timeouts()));
        }
        md.append("\n## Targets\n\n");
        if (options.scale() != 1) {
            md.append(String.format("The targets are set at the full rates; this run's were scaled by %s, so it is a guide only.%n%n",
                    trim(options.scale())));
        }
        md.append("| target | measured | met |\n| --- | --- | --- |\n");
        for (var target : TARGETS) {
            var result = results.stream().filter(r -> target.covers(r.scenario())).findFirst();
            if (result.isEmpty()) {
                continue;
            }
            var r = result.get();
            boolean met;
            String measured;
            if (target.minRate() > 0) {
                met = r.throughput() >= target.minRate();
                measured = String.format("%,.0f profiles/s", r.throughput());
            } else {
                double value = r.latencies().getValueAtPercentile(target.percentile()) / 1000.0;
                met = value <= target.maxMillis() && r.errors() == 0 && r.timeouts() == 0;
                measured = String.format("p%s %.1f ms", trim(target.percentile()), value);
            }
            md.append(String.format("| %s: %s | %s | %s |%n", target.scenario(), target.text(), measured, met ? "yes" : "**no**"));
        }
        var floor = find(results, HTTP_FLOOR);
        double http = floor == null ? 0 : floor.latencies().getValueAtPercentile(50) / 1000.0;
        md.append("\n## Service overhead\n\nMedian of each endpoint against the backend call it makes, alone, plus HTTP ")
                .append(String.format("(the median of `%s`, %.2f ms). Target: service ≤ %.1f × backend + HTTP.%n%n",
                        HTTP_FLOOR, http, OVERHEAD))
                .append("| endpoint | service p50 | backend alone p50 | (service − HTTP) / backend | met |\n")
                .append("| --- | ---: | ---: | ---: | --- |\n");
        for (var entry : BASELINES.entrySet()) {
            var service = find(results, entry.getKey());
            var backend = find(results, entry.getValue());
            if (service != null && backend != null) {
                double s = service.latencies().getValueAtPercentile(50) / 1000.0;
                double b = backend.latencies().getValueAtPercentile(50) / 1000.0;
                md.append(String.format("| %s | %.2f ms | %.2f ms (%s) | %.1f× | %s |%n", entry.getKey(), s, b,
                        entry.getValue(), (s - http) / b, s <= OVERHEAD * b + http ? "yes" : "**no**"));
            }
        }
        InterleavedReport.append(md, results);
        md.append(String.format("%nSearches, a tighter target: service ≤ %.1f × the raw query + HTTP.%n%n", SEARCH_OVERHEAD))
                .append("| endpoint | service p50 | bound | met |\n| --- | ---: | ---: | --- |\n");
        for (var entry : BASELINES.entrySet()) {
            var service = find(results, entry.getKey());
            var backend = find(results, entry.getValue());
            if (service != null && backend != null && entry.getKey().startsWith("GET /v1/search")) {
                double s = service.latencies().getValueAtPercentile(50) / 1000.0;
                double bound = SEARCH_OVERHEAD * backend.latencies().getValueAtPercentile(50) / 1000.0 + http;
                md.append(String.format("| %s | %.2f ms | %.2f ms | %s |%n", entry.getKey(), s, bound,
                        s <= bound ? "yes" : "**no**"));
            }
        }
        var platform = find(results, SEARCHES_AS_PLATFORM);
        var operator = find(results, SEARCHES_AS_OPERATOR);
        if (platform != null && operator != null) {
            double share = operator.throughput() / platform.throughput();
            md.append(String.format("%n## What the audit costs%n%nThe same surname searches, back to back by %d callers: "
                    + "a platform's key %.0f/s (p50 %s ms), an operator's %.0f/s (p50 %s ms), each of the operator's "
                    + "with its audit record committed before the answer. Operator ÷ platform: %.2f (target ≥ %.1f): %s.%n",
                    SEARCH_CALLERS, platform.throughput(), ms(platform.latencies(), 50), operator.throughput(),
                    ms(operator.latencies(), 50), share, OPERATOR_SHARE, share >= OPERATOR_SHARE ? "met" : "**not met**"));
        }
        var contention = find(results, CONTENTION);
        if (contention != null) {
            md.append('\n').append(contention(contention));
        }
        sections.forEach(section -> md.append('\n').append(section.strip()).append('\n'));
        PerRequestReport.append(md, results, cpu, postgres);
        CpuReport.append(md, dir, results, cpu);
        if (!notes.isEmpty()) {
            md.append("\n## Notes\n\n");
            notes.forEach(note -> md.append("- ").append(note).append('\n'));
        }
        Files.writeString(dir.resolve("README.md"), md.toString());
        for (var r : results) {
            var out = new ByteArrayOutputStream();
            r.latencies().outputPercentileDistribution(new PrintStream(out, true, StandardCharsets.UTF_8), 1000.0);
            Files.writeString(dir.resolve(slug(r.scenario()) + ".hgrm"), out.toString(StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve("report.html"), html(results, md.toString()));
        Files.writeString(dir.resolve(RESULTS_JSON), json(options, results));
        return dir.resolve("README.md");
    }

    /** The heading of the section that lists the service's answers of 400 and above. */
    static final String REFUSALS = "## Answers of 400 and above";

    /** The service's answers of 400 and above, by request, status and problem type, with the first one's detail. */
    static String refusals(Map<String, BenchHttp.Refusals> refused) {
        var md = new StringBuilder(REFUSALS).append("\n\nEvery scenario's, warm-ups included. Expected: the contention's ")
                .append("409 and 412, and a few 404 `profile-not-found` when a run looks for where the profiles an earlier ")
                .append("run loaded end (a binary search by pid).\n\n")
                .append("| request, status, problem type | answers | the first one's detail |\n")
                .append("| --- | ---: | --- |\n");
        refused.forEach((what, r) -> md.append(String.format("| %s | %,d | %s |%n", what, r.count(),
                r.firstDetail().replace("|", "\\|"))));
        return md.toString();
    }

    /** The results table as data, for the size series ({@link SizeSeries}) to put runs of several sizes together. */
    static final String RESULTS_JSON = "results.json";

    static String json(BenchOptions options, List<Load.Result> results) throws IOException {
        var root = Bench.JSON.createObjectNode();
        root.put("profiles", options.profiles());
        root.put("command", "./bench/run " + options.command());
        var rows = root.putArray("results");
        for (var r : results) {
            var row = rows.addObject();
            row.put("scenario", r.scenario());
            row.put("targetRate", r.targetRate());
            row.put("achieved", r.throughput());
            row.put("successes", r.latencies().getTotalCount());
            for (var p : new double[] {50, 90, 99, 99.9}) {
                if (r.latencies().getTotalCount() > 0) {
                    row.put("p" + trim(p), r.latencies().getValueAtPercentile(p) / 1000.0);
                }
            }
            if (r.all().getTotalCount() > 0) {
                row.put("allP99", r.all().getValueAtPercentile(99) / 1000.0);
            }
            row.put("errors", r.errors());
            row.put("timeouts", r.timeouts());
        }
        return Bench.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }

    /** The contention scenario's section: how its requests were answered, and how fast the writes that won were. */
    static String contention(Load.Result r) {
        double seconds = (r.window().toNanos() - r.window().fromNanos()) / 1e9;
        long counted = r.all().getTotalCount();
        var md = new StringBuilder(String.format("## Contention%n%n%d hot profiles, %d clients on each, %s requests a "
                + "second in all (open loop); each request sends the version its client last learned from its own "
                + "answers (a 200's, or the current one a 412 names), so another client's write in between makes it "
                + "stale. 409 and 412 are what such clients meet, not errors.%n%n", Contention.HOT_PROFILES,
                Contention.CLIENTS_PER_PROFILE, trim(r.targetRate())));
        md.append("| answer | requests | per second | share |\n| --- | ---: | ---: | ---: |\n");
        var rows = new LinkedHashMap<String, Long>();
        rows.put("200 written", r.statuses().getOrDefault(200, 0L));
        rows.put("409 locked", r.statuses().getOrDefault(409, 0L));
        rows.put("412 stale version", r.statuses().getOrDefault(412, 0L));
        rows.put("errors", r.errors());
        rows.put("timeouts", r.timeouts());
        rows.forEach((answer, count) -> md.append(String.format("| %s | %,d | %.1f | %.1f %% |%n", answer, count,
                count / seconds, counted == 0 ? 0 : 100.0 * count / counted)));
        md.append(String.format("%nThe writes that won (200): p50 %s ms, p99 %s ms, p99.9 %s ms; every answer: p99 %s ms.%n",
                ms(r.latencies(), 50), ms(r.latencies(), 99), ms(r.latencies(), 99.9), ms(r.all(), 99)));
        return md.toString();
    }

    static Load.Result find(List<Load.Result> results, String scenario) {
        return results.stream().filter(r -> r.scenario().equals(scenario)).findFirst().orElse(null);
    }

    private static String ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? "-" : String.format("%.2f", h.getValueAtPercentile(percentile) / 1000.0);
    }

    private static String ms(long micros) {
        return String.format("%.2f", micros / 1000.0);
    }

    private static String trim(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }

    static String slug(String scenario) {
        return scenario.toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }

    /** Latency by percentile, one SVG per group of scenarios; the x axis stretches the tail (1 / (1 - p)). */
    private static String html(List<Load.Result> results, String markdown) {
        var groups = new LinkedHashMap<String, List<Load.Result>>();
        for (var r : results) {
            String group = r.scenario().contains("search") || r.scenario().contains("Elasticsearch") || r.scenario().contains("prefix")
                    || r.scenario().contains("phone") ? "Search"
                    : r.scenario().contains("PUT") || r.scenario().contains("update") || r.scenario().contains("mix") ? "Writes"
                    : r.scenario().contains("index lag") || r.scenario().contains("import") || r.scenario().contains("creates")
                            || r.scenario().contains("change stream") ? "Import and index lag"
                    : "Reads";
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(r);
        }
        var html = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>profile-store benchmark</title>")
                .append("<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto}svg{background:#fafafa}")
                .append("pre{white-space:pre-wrap;font-size:12px}</style></head><body><h1>profile-store benchmark</h1>");
        String[] colors = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};
        for (var group : groups.entrySet()) {
            html.append("<h2>").append(group.getKey()).append("</h2>").append(svg(group.getValue(), colors));
        }
        html.append("<h2>The report</h2><pre>").append(markdown.replace("&", "&amp;").replace("<", "&lt;")).append("</pre></body></html>");
        return html.toString();
    }

    private static String svg(List<Load.Result> results, String[] colors) {
        int width = 900;
        int height = 360;
        int left = 60;
        int bottom = 40;
        double[] percentiles = {0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
        double maxX = Math.log10(1 / (1 - 0.9999));
        double maxY = 1;
        for (var r : results) {
            if (r.latencies().getTotalCount() > 0) {
                maxY = Math.max(maxY, r.latencies().getValueAtPercentile(99.99) / 1000.0);
            }
        }
        var svg = new StringBuilder(String.format("<svg width=\"%d\" height=\"%d\" xmlns=\"http://www.w3.org/2000/svg\">", width, height));
        for (double p : new double[] {0, 90, 99, 99.9, 99.99}) {
            double x = left + (width - left - 20) * Math.log10(1 / (1 - p / 100)) / maxX;
            svg.append(String.format("<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>", x, x, height - bottom));
            svg.append(String.format("<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">p%s</text>", x, height - bottom + 15, trim(p)));
        }
        for (int i = 0; i <= 4; i++) {
            double y = height - bottom - (height - bottom - 10) * i / 4.0;
            svg.append(String.format("<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.1f ms</text>", left - 5, y + 4, maxY * i / 4));
        }
        int legend = 0;
        for (var r : results) {
            if (r.latencies().getTotalCount() == 0) {
                continue;
            }
            String color = colors[legend % colors.length];
            var points = new StringBuilder();
            for (double p : percentiles) {
                double x = left + (width - left - 20) * Math.log10(1 / (1 - p / 100)) / maxX;
                double y = height - bottom - (height - bottom - 10) * (r.latencies().getValueAtPercentile(p) / 1000.0) / maxY;
                points.append(String.format("%.1f,%.1f ", x, y));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\" points=\"").append(points).append("\"/>");
            svg.append(String.format("<text x=\"%d\" y=\"%d\" font-size=\"12\" fill=\"%s\">%s</text>", left + 10, 22 + 15 * legend, color,
                    r.scenario().replace("&", "&amp;").replace("<", "&lt;")));
            legend++;
        }
        return svg.append("</svg>").toString();
    }

    private static String git() {
        try {
            var process = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String machine() {
        var facts = new ArrayList<String>();
        facts.add(Runtime.getRuntime().availableProcessors() + " cores");
        try {
            String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().map(l -> l.substring(l.indexOf(':') + 1).strip()).orElse("");
            if (!cpu.isEmpty()) {
                facts.add(cpu);
            }
            String mem = Files.readAllLines(Path.of("/proc/meminfo")).get(0).replaceAll("\\D+", "");
            facts.add(String.format("%.0f GiB", Long.parseLong(mem) / 1024.0 / 1024.0));
        } catch (IOException | RuntimeException ignored) {
            // not Linux: fewer facts
        }
        facts.add("Java " + System.getProperty("java.version"));
        var settings = StackSettings.fromEnvironment();
        facts.add("stack " + TestStack.stack().mode().name().toLowerCase() + " on this machine: Cassandra 5.0.6 ("
                + (settings.cassandraNodes() == 1 ? "1 node, heap " : settings.cassandraNodes() + " nodes, heap each ")
                + settings.cassandraHeap() + ", "
                + (settings.cassandraFullJit() ? "full JIT" : "quick JIT only") + "), Elasticsearch 9.5.3 (heap "
                + settings.elasticsearchHeap() + "), PostgreSQL and RabbitMQ of the OS");
        return String.join(", ", facts);
    }
}
