package io.profilestore.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.resources.RequestMetrics;
import io.profilestore.search.NameNormalizer;
import io.profilestore.search.SearchCriteria;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;

/**
 * The benchmark: loads profiles with the import command ({@link DatasetLoader}), then measures every scenario of bench/README.md at
 * fixed rates, side by side with the backends alone and a PostgreSQL-only baseline, and writes the report.
 *
 * <pre>
 * ./bench/run --profiles 1000000                       # the full run (see bench/README.md)
 * ./bench/run --quick                                  # a few thousand profiles, a few seconds per scenario
 * </pre>
 */
public final class Bench {

    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) {
        try {
            var report = run(BenchOptions.parse(args));
            System.out.println("report: " + report.toAbsolutePath());
            System.exit(0);
        } catch (Exception | Error e) {
            // the service's threads would keep a failed run's JVM, and the stack it holds, alive for good
            e.printStackTrace();
            System.exit(1);
        }
    }

    static Path run(BenchOptions options) throws Exception {
        TestStack.stack();
        if (options.keepStack()) {
            TestStack.keepRunningAtExit();
        }
        var app = new DropwizardTestSupport<>(ProfileStoreApplication.class, TestStack.configPath(),
                TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true"),
                        ConfigOverride.config("logging.level", "WARN"),
                        // a request log line for each of a million requests is not what is measured
                        ConfigOverride.config("server.requestLog.appenders[0].type", "file"),
                        ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", "target/bench-requests.log"),
                        ConfigOverride.config("server.requestLog.appenders[0].archive", "false"),
                        ConfigOverride.config("postgres.maxPoolSize", "32"),
                        // the users' tables check scans every user 10 minutes after start (and every 6 h), a minute of
                        // Cassandra on these two cores: it ran amid the scenarios (the mix's p99 115 ms, the prefix
                        // search's 256 ms in two runs). In production it is a CronJob of its own (the chart turns this
                        // schedule off); its cost is not what the scenarios measure.
                        ConfigOverride.config("users.checkTablesEvery", "0s")));
        app.before();
        try {
            // read once the service runs: its contact points are those of the configuration it was started with
            var shape = StackShape.read(app.getConfiguration().cassandra.contactPoints);
            shape.check(options);
            return run(options, shape, app);
        } finally {
            app.after();
        }
    }

    private static Path run(BenchOptions options, StackShape shape, DropwizardTestSupport<ProfileStoreConfiguration> app)
            throws Exception {
        var pool = Executors.newFixedThreadPool(64, Load.named(Load.THREADS));
        var bench = new Bench(options, shape, app, pool);
        try (var http = bench.http; var cpu = bench.cpu) {
            try (var postgres = PostgresMeter.start(TestStack.asOwner())) {
                bench.postgresMeter = postgres;
                return bench.runAll();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private final BenchOptions options;
    private final StackShape shape;
    private final DropwizardTestSupport<ProfileStoreConfiguration> app;
    private final ExecutorService pool;
    private final BenchHttp http;
    private final BenchCalls calls;
    private final CpuMeter cpu = CpuMeter.start();
    private PostgresMeter postgresMeter;
    private final Findings findings = new Findings();
    private final NameNormalizer names = NameNormalizer.standard();

    private Bench(BenchOptions options, StackShape shape, DropwizardTestSupport<ProfileStoreConfiguration> app,
            ExecutorService pool) {
        this.options = options;
        this.shape = shape;
        this.app = app;
        this.pool = pool;
        this.http = new BenchHttp(URI.create("http://127.0.0.1:" + app.getLocalPort()));
        this.calls = new BenchCalls(http, pool);
    }

    private double rate(double full) {
        return options.rate(full);
    }

    private Path runAll() throws Exception {
        var dataset = new DatasetLoader(options, http, pool, app, findings).load();
        if (options.only().equals(Set.of("import"))) {
            return report();
        }
        var postgres = PostgresBaseline.prepare(TestStack.asOwner(), dataset, names);
        var terms = new SearchTerms(dataset);
        int toUpdate = Math.max(200, (int) (10_000 * options.scale()));
        var updatable = options.runs("put") ? Updatable.created(http, options.seed(), toUpdate) : null;
        var updatableForMix = options.runs("mix") ? Updatable.created(http, options.seed(), toUpdate) : null;
        DatasetLoader.awaitIndexed(app);
        QuietBackends.awaitMergesDone(TestStack.backends().elasticsearch());
        long compactionsStart = System.nanoTime();
        QuietBackends.awaitCompactionsDone(TestStack.backends().cassandra());
        findings.note(String.format("Cassandra's compactions were waited for before the first scenario: %.1f s",
                (System.nanoTime() - compactionsStart) / 1e9));
        warmUpStack(dataset, terms);
        long jitStart = System.nanoTime();
        boolean jitQuiet = QuietBackends.awaitJitQuiet();
        findings.note(String.format("After the warm-up, the service's JIT was waited for until it compiled less than %d ms"
                + " in 2 s, three times in a row: %.1f s%s", QuietBackends.QUIET_JIT_MILLIS,
                (System.nanoTime() - jitStart) / 1e9, jitQuiet ? "" : ", and it was not quiet then: the run went on"));

        if (options.runs("reads") || options.runs("search")) {
            var ping = URI.create("http://127.0.0.1:" + app.getAdminPort() + "/ping");
            findings.measured(Load.openLoop(Report.HTTP_FLOOR, rate(500), options.warmup(), options.duration(),
                    () -> http.get(ping).thenApply(SimpleHttpResponse::getCode)));
        }
        if (options.runs("reads")) {
            reads(dataset, postgres);
        }
        if (options.runs("put")) {
            findings.measured(Load.openLoop("PUT /v1/profiles/{pid} with If-Match", rate(100), options.warmup(),
                    options.duration(), () -> updatable.put(http)));
            var updatableInPostgres = postgres.updatable(dataset.pids.subList(0, Math.min(dataset.size, updatable.pids().length)));
            findings.measured(Load.openLoop(Report.POSTGRES_UPDATE, rate(100), options.warmup(), options.duration(),
                    () -> updatableInPostgres.write((pid, expected) -> calls.answered(() -> postgres.update(pid, expected)),
                            pid -> {
                                try {
                                    return postgres.version(pid);
                                } catch (SQLException e) {
                                    throw new IllegalStateException(e);
                                }
                            })));
        }
        if (options.runs("stream")) {
            // its own profiles: the put scenario's are at versions its answers counted
            var streamed = Updatable.created(http, options.seed() + 1, Math.max(200, (int) (2_000 * options.scale())));
            findings.measured(EventDelay.measure(app.getConfiguration(), http, streamed, rate(100), options.warmup(),
                    options.duration()));
        }
        if (options.runs("contention")) {
            contention();
        }
        if (options.runs("mix")) {
            findings.measured(Load.openLoop("90/10 read/write mix", rate(500), options.warmup(), options.duration(),
                    () -> ThreadLocalRandom.current().nextInt(10) == 0 ? updatableForMix.put(http)
                            : calls.get("/v1/profiles/" + randomPid(dataset))));
        }
        var searches = new SearchScenarios(options, http, calls, findings, names, app.getAdminPort());
        if (options.runs("search")) {
            searches.eachKind(dataset, terms, postgres);
        }
        if (options.runs("matches")) {
            searches.matches(dataset);
        }
        if (options.runs("callers")) {
            searches.byCaller(terms);
        }
        if (options.runs("lag")) {
            findings.measured(IndexLag.measure(http, pool, Math.max(20, (int) (200 * options.scale()))));
        }
        return report();
    }

    private Path report() throws IOException {
        var refused = http.refusals();
        if (!refused.isEmpty()) {
            findings.section(Report.refusals(refused));
        }
        return Report.write(options, shape, findings.results, findings.notes, findings.sections, cpu, postgresMeter);
    }

    /**
     * Reads and searches, closed loop, through the service and straight to each backend, before the first scenario,
     * not counted. A stack just (re)started compiles its read paths and fills its caches during whatever reads it
     * first: that scenario then ran behind its rate, its backlog spilled from its warm-up into its window (GET p50 3 s
     * at 500/s), while the raw baseline right after it found everything warm. Closed loop: a slow start builds no
     * backlog. Each scenario still has its own warm-up.
     */
    private void warmUpStack(Dataset dataset, SearchTerms terms) {
        var warmUp = Duration.ofSeconds(Math.min(60, Math.max(options.warmup().toSeconds(), options.duration().toSeconds())));
        var next = new AtomicInteger();
        Load.Operation operation = () -> switch (next.getAndIncrement() % 6) {
            case 0 -> calls.get("/v1/profiles/" + randomPid(dataset));
            case 1 -> CassandraBaseline.read(randomPid(dataset));
            case 2 -> calls.get("/v1/search?limit=20&surname=" + SearchTerms.encode(terms.surnamePrefix()));
            case 3 -> calls.async(() -> ElasticBaseline.search(new SearchCriteria(names.queryReadings(terms.surnamePrefix()),
                    null, null, null, null, null, null)));
            case 4 -> calls.get("/v1/search?phone=" + dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)]);
            default -> calls.get("/v1/profiles/" + randomPid(dataset) + "/matches");
        };
        var result = Load.closedLoop("warm-up", 8, 1, Duration.ZERO, warmUp, operation);
        // what it found is said, so that a warm-up that mostly failed or crawled does not pass unseen
        findings.note(String.format("Before the first scenario, %d s of reads and searches, 8 clients closed loop through the"
                + " service and straight to Cassandra and Elasticsearch, warmed the stack; not counted: %,.0f answers a"
                + " second, p50 %.2f ms, %d errors, %d timeouts", warmUp.toSeconds(), result.throughput(),
                result.latencies().getValueAtPercentile(50) / 1000.0, result.errors(), result.timeouts()));
    }

    private static UUID randomPid(Dataset dataset) {
        return dataset.pids.get(ThreadLocalRandom.current().nextInt(dataset.size));
    }

    /**
     * A few hot profiles written by many clients at once ({@link Contention}), each request sending the version its
     * client last learned: 409 (locked) and 412 (stale version) are what such clients meet, counted, not errors.
     */
    private void contention() {
        var hot = Updatable.created(http, options.seed(), Contention.HOT_PROFILES);
        var contention = new Contention(List.of(hot.pids()), 1, Contention.CLIENTS_PER_PROFILE);
        findings.measured(Load.openLoop(Report.CONTENTION, rate(100), options.warmup(), options.duration(), Contention.OUTCOMES, () -> {
            var client = contention.pick(ThreadLocalRandom.current());
            long sent = client.seen();
            return http.put("/v1/profiles/" + client.pid, "\"" + sent + "\"",
                    "{\"data\": {\"surname\": \"Спорная\", \"n\": " + (sent + 1) + "}}").thenApply(response -> {
                        client.learn(response.getCode(), sent, response.getCode() == 412 ? json(response) : null);
                        return response.getCode();
                    });
        }));
    }

    private static JsonNode json(SimpleHttpResponse response) {
        try {
            return JSON.readTree(response.getBodyBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A profile by pid, through the service and from each backend alone. */
    private void reads(Dataset dataset, PostgresBaseline postgres) throws Exception {
        findings.measured(Load.openLoop("GET /v1/profiles/{pid}", rate(500), options.warmup(), options.duration(),
                () -> calls.get("/v1/profiles/" + randomPid(dataset))));
        findings.measured(Load.openLoop("raw Cassandra read, QUORUM", rate(500), options.warmup(), options.duration(),
                () -> CassandraBaseline.read(randomPid(dataset))));
        findings.measured(Load.openLoop("PostgreSQL baseline: read by pk", rate(500), options.warmup(), options.duration(),
                () -> calls.async(() -> postgres.read(randomPid(dataset)))));
        readsInterleaved(dataset);
    }

    /**
     * The GET, its read done as the service does it, the driver's read alone and HTTP alone, taking turns in one
     * window (InterleavedReport); and the service's own time for the GETs of that window, read from its /prometheus
     * as the window starts and once every answer is in.
     */
    private void readsInterleaved(Dataset dataset) throws Exception {
        var ping = URI.create("http://127.0.0.1:" + app.getAdminPort() + "/ping");
        var asTheService = InterleavedReport.GET_INTERLEAVED;
        var timer = Executors.newSingleThreadScheduledExecutor(Load.named(Load.THREADS + "-server-time"));
        var windowStart = timer.schedule(() -> ServerTime.ofGets(http, app.getAdminPort()),
                options.warmup().toMillis() + 10, TimeUnit.MILLISECONDS);
        var interleaved = Load.interleaved(List.of(asTheService.service(), asTheService.backend(),
                InterleavedReport.GET_AGAINST_RAW_READ.backend(), asTheService.http()), rate(1000), options.warmup(),
                options.duration(), List.of(
                        () -> calls.get("/v1/profiles/" + randomPid(dataset)),
                        () -> CompletableFuture.supplyAsync(() -> CassandraBaseline.readAsTheService(randomPid(dataset)), pool),
                        () -> CassandraBaseline.read(randomPid(dataset)),
                        () -> http.get(ping).thenApply(SimpleHttpResponse::getCode)));
        interleaved.forEach(findings::measured);
        var after = ServerTime.ofGets(http, app.getAdminPort());
        timer.shutdown();
        var before = windowStart.get(); // read as the window started, long since
        var client = interleaved.get(0).latencies();
        findings.note(String.format("In the interleaved window, the service's own time for a GET, from Jersey taking the"
                + " request to the answer written (its `%s`): mean %.3f ms over %,d requests; the same GETs at the"
                + " client, from when each was due: mean %.3f ms, p50 %.3f ms. The difference is the client, the"
                + " connection and the wait for a Jetty thread.", RequestMetrics.REQUESTS, after.meanMillisSince(before),
                after.requestsSince(before), client.getMean() / 1000.0, client.getValueAtPercentile(50) / 1000.0));
    }
}
