package io.profilestore.bench;

import co.elastic.clients.elasticsearch.core.SearchRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.ibm.icu.text.Transliterator;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.core.search.MatchQuery;
import io.profilestore.core.search.MatchService;
import io.profilestore.core.search.NameNormalizer;
import io.profilestore.core.search.ProfileDocument;
import io.profilestore.core.search.SearchCriteria;
import io.profilestore.core.search.TypedQuery;
import io.profilestore.db.SearchIndex;
import io.profilestore.demo.ProfileGenerator;
import io.profilestore.stack.StackSettings;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;
import org.HdrHistogram.ConcurrentHistogram;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.awaitility.Awaitility;

/**
 * The benchmark: loads profiles through the API, then measures every scenario of bench/README.md at
 * fixed rates, side by side with the backends alone and a PostgreSQL-only baseline, and writes the report.
 *
 * <pre>
 * ./bench/run --profiles 1000000                       # the full run (see bench/README.md)
 * ./bench/run --quick                                  # a few thousand profiles, a few seconds per scenario
 * </pre>
 */
public final class Bench {

    /**
     * What to run. {@code scale} multiplies every rate (the quick run uses less). {@code reuse}: profiles an earlier
     * run loaded are used again (the quick run loads its few every time, so that it measures the import too, unless
     * {@code --reuse} says otherwise).
     * {@code keepStack}: the stack is left running when the run ends, its services warm for the next run (a stack
     * started afresh compiles Elasticsearch's write path during the first writes it measures).
     */
    record Options(int profiles, long seed, Duration warmup, Duration duration, double scale, Path out, boolean reuse,
            Set<String> only, boolean keepStack, boolean postgresFast, int cluster, String command) {

        /** The groups of scenarios {@code --only} names (all run without it). */
        static final Set<String> GROUPS = Set.of("import", "reads", "put", "contention", "mix", "search", "matches",
                "callers", "lag");

        boolean runs(String group) {
            return only.isEmpty() || only.contains(group);
        }

        static Options parse(String[] args) {
            int profiles = 1_000_000;
            long seed = 20261130;
            Duration warmup = Duration.ofSeconds(20);
            Duration duration = Duration.ofSeconds(60);
            double scale = 1;
            Path out = Path.of("bench/results/" + LocalDate.now());
            boolean reuse = true;
            boolean reuseAsked = false;
            Set<String> only = Set.of();
            boolean keepStack = false;
            boolean postgresFast = false;
            int cluster = 1;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--profiles" -> profiles = Integer.parseInt(args[++i]);
                    case "--seed" -> seed = Long.parseLong(args[++i]);
                    case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--duration" -> duration = Duration.ofSeconds(Long.parseLong(args[++i]));
                    case "--scale" -> scale = Double.parseDouble(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--only" -> {
                        only = Set.of(args[++i].split(","));
                        if (!GROUPS.containsAll(only)) {
                            throw new IllegalArgumentException("--only takes some of " + new TreeSet<>(GROUPS));
                        }
                    }
                    case "--keep-stack" -> keepStack = true;
                    // with --quick too, in either order: each run of a size series (./bench/run --sizes) imports only
                    // the profiles beyond those of the size before
                    case "--reuse" -> reuseAsked = true;
                    // ./bench/run starts PostgreSQL so (PROFILE_STORE_POSTGRES_DURABLE); here it is checked and reported
                    case "--postgres-fast" -> postgresFast = true;
                    // ./bench/run starts the nodes and has migrate create the keyspace at RF 3; checked here
                    case "--cluster" -> {
                        cluster = Integer.parseInt(args[++i]);
                        if (cluster != 1 && cluster != 3) {
                            throw new IllegalArgumentException("--cluster takes 1 or 3 (Cassandra nodes, at RF as many)");
                        }
                    }
                    case "--quick" -> {
                        profiles = 3_000;
                        warmup = Duration.ofSeconds(1);
                        duration = Duration.ofSeconds(3);
                        scale = 0.2;
                        out = Path.of("target/bench-quick");
                        reuse = false;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(profiles, seed, warmup, duration, scale, out, reuse || reuseAsked, only, keepStack,
                    postgresFast, cluster, String.join(" ", args));
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) {
        try {
            var report = run(Options.parse(args));
            System.out.println("report: " + report.toAbsolutePath());
            System.exit(0);
        } catch (Exception | Error e) {
            // the service's threads would keep a failed run's JVM, and the stack it holds, alive for good
            e.printStackTrace();
            System.exit(1);
        }
    }

    static Path run(Options options) throws Exception {
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

    private static Path run(Options options, StackShape shape, DropwizardTestSupport<ProfileStoreConfiguration> app)
            throws Exception {
        var pool = Executors.newFixedThreadPool(64, Load.named(Load.THREADS));
        var bench = new Bench(options, shape, app, pool);
        try (var http = bench.http; var cpu = bench.cpu) {
            return bench.runAll();
        } finally {
            pool.shutdownNow();
        }
    }

    private final Options options;
    private final StackShape shape;
    private final DropwizardTestSupport<ProfileStoreConfiguration> app;
    private final ExecutorService pool;
    private final BenchHttp http;
    private final CpuMeter cpu = CpuMeter.start();
    private final List<Load.Result> results = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    /** Sections of their own in the report (the import, the matches' quality), in Markdown. */
    private final List<String> sections = new ArrayList<>();
    private final Transliterator romanize = Transliterator.getInstance("Russian-Latin/BGN");
    private final NameNormalizer names = NameNormalizer.standard();

    private Bench(Options options, StackShape shape, DropwizardTestSupport<ProfileStoreConfiguration> app,
            ExecutorService pool) {
        this.options = options;
        this.shape = shape;
        this.app = app;
        this.pool = pool;
        this.http = new BenchHttp(URI.create("http://127.0.0.1:" + app.getLocalPort()));
    }

    private double rate(double full) {
        return Math.max(1, full * options.scale());
    }

    private Path runAll() throws Exception {
        var dataset = load();
        if (options.only().equals(Set.of("import"))) {
            return report();
        }
        var postgres = PostgresBaseline.prepare(TestStack.asOwner(), dataset, names);
        var updatable = options.runs("put") ? freshProfiles(Math.max(200, (int) (10_000 * options.scale()))) : null;
        var updatableForMix = options.runs("mix") ? freshProfiles(Math.max(200, (int) (10_000 * options.scale()))) : null;
        awaitIndexed();
        QuietBackends.awaitMergesDone(TestStack.backends().elasticsearch());
        long compactionsStart = System.nanoTime();
        QuietBackends.awaitCompactionsDone(TestStack.backends().cassandra());
        notes.add(String.format("Cassandra's compactions were waited for before the first scenario: %.1f s",
                (System.nanoTime() - compactionsStart) / 1e9));
        warmUpStack(dataset);

        if (options.runs("reads") || options.runs("search")) {
            var ping = URI.create("http://127.0.0.1:" + app.getAdminPort() + "/ping");
            run(Load.openLoop(Report.HTTP_FLOOR, rate(500), options.warmup(), options.duration(),
                    () -> http.get(ping).thenApply(SimpleHttpResponse::getCode)));
        }
        if (options.runs("reads")) {
            reads(dataset, postgres);
        }
        if (options.runs("put")) {
            run(Load.openLoop("PUT /v1/profiles/{pid} with If-Match", rate(100), options.warmup(), options.duration(),
                    () -> put(updatable)));
            var updatableInPostgres = postgres.updatable(dataset.pids.subList(0, Math.min(dataset.size, updatable.pids().length)));
            run(Load.openLoop(Report.POSTGRES_UPDATE, rate(100), options.warmup(), options.duration(),
                    () -> writeTracked(updatableInPostgres, (pid, expected) -> answered(() -> postgres.update(pid, expected)),
                            pid -> {
                                try {
                                    return postgres.version(pid);
                                } catch (SQLException e) {
                                    throw new IllegalStateException(e);
                                }
                            })));
        }
        if (options.runs("contention")) {
            contention();
        }
        if (options.runs("mix")) {
            run(Load.openLoop("90/10 read/write mix", rate(500), options.warmup(), options.duration(), () ->
                    ThreadLocalRandom.current().nextInt(10) == 0 ? put(updatableForMix) : get("/v1/profiles/" + randomPid(dataset))));
        }
        if (options.runs("search")) {
            searches(dataset, postgres);
        }
        if (options.runs("matches")) {
            matches(dataset);
        }
        if (options.runs("callers")) {
            searchesByCaller(dataset);
        }
        if (options.runs("lag")) {
            run(indexLag());
        }
        return report();
    }

    private Path report() throws IOException {
        var refused = http.refusals();
        if (!refused.isEmpty()) {
            sections.add(Report.refusals(refused));
        }
        return Report.write(options, shape, results, notes, sections, cpu);
    }

    /**
     * Reads and searches, closed loop, through the service and straight to each backend, before the first scenario,
     * not counted. A stack just (re)started compiles its read paths and fills its caches during whatever reads it
     * first: that scenario then ran behind its rate, its backlog spilled from its warm-up into its window (GET p50 3 s
     * at 500/s), while the raw baseline right after it found everything warm. Closed loop: a slow start builds no
     * backlog. Each scenario still has its own warm-up.
     */
    private void warmUpStack(Dataset dataset) {
        var warmUp = Duration.ofSeconds(Math.min(60, Math.max(options.warmup().toSeconds(), options.duration().toSeconds())));
        var next = new AtomicInteger();
        Load.Operation operation = () -> switch (next.getAndIncrement() % 6) {
            case 0 -> get("/v1/profiles/" + randomPid(dataset));
            case 1 -> CassandraBaseline.read(randomPid(dataset));
            case 2 -> get("/v1/search?limit=20&surname=" + encode(surnamePrefix(dataset)));
            case 3 -> async(() -> ElasticBaseline.search(new SearchCriteria(names.queryReadings(surnamePrefix(dataset)),
                    null, null, null, null, null, null)));
            case 4 -> get("/v1/search?phone=" + dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)]);
            default -> get("/v1/profiles/" + randomPid(dataset) + "/matches");
        };
        var result = Load.closedLoop("warm-up", 8, 1, Duration.ZERO, warmUp, operation);
        // what it found is said, so that a warm-up that mostly failed or crawled does not pass unseen
        notes.add(String.format("Before the first scenario, %d s of reads and searches, 8 clients closed loop through the"
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
        var hot = freshProfiles(Contention.HOT_PROFILES);
        var contention = new Contention(List.of(hot.pids()), 1, Contention.CLIENTS_PER_PROFILE);
        run(Load.openLoop(Report.CONTENTION, rate(100), options.warmup(), options.duration(), Contention.OUTCOMES, () -> {
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
    private void reads(Dataset dataset, PostgresBaseline postgres) {
        run(Load.openLoop("GET /v1/profiles/{pid}", rate(500), options.warmup(), options.duration(),
                () -> get("/v1/profiles/" + randomPid(dataset))));
        run(Load.openLoop("raw Cassandra read, QUORUM", rate(500), options.warmup(), options.duration(),
                () -> CassandraBaseline.read(randomPid(dataset))));
        run(Load.openLoop("PostgreSQL baseline: read by pk", rate(500), options.warmup(), options.duration(),
                () -> async(() -> postgres.read(randomPid(dataset)))));
    }

    /** Each kind of search, through the service, as the raw Elasticsearch query, and from PostgreSQL. */
    private void searches(Dataset dataset, PostgresBaseline postgres) {
        run(Load.openLoop("GET /v1/search surname prefix", rate(50), options.warmup(), options.duration(),
                () -> get("/v1/search?limit=20&surname=" + encode(surnamePrefix(dataset)))));
        run(Load.openLoop("raw Elasticsearch surname prefix query", rate(50), options.warmup(), options.duration(),
                () -> async(() -> ElasticBaseline.search(new SearchCriteria(names.queryReadings(surnamePrefix(dataset)),
                        null, null, null, null, null, null)))));
        run(Load.openLoop("PostgreSQL baseline: surname prefix", rate(50), options.warmup(), options.duration(),
                () -> async(() -> postgres.surnamePrefix(names.read(surnamePrefix(dataset)).words().get(0).iterator().next()))));

        run(Load.openLoop("GET /v1/search exact phone", rate(50), options.warmup(), options.duration(),
                () -> get("/v1/search?phone=" + dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)])));
        run(Load.openLoop("raw Elasticsearch exact phone query", rate(50), options.warmup(), options.duration(),
                () -> async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null,
                        dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)], null, null)))));
        run(Load.openLoop("PostgreSQL baseline: exact phone", rate(50), options.warmup(), options.duration(),
                () -> async(() -> postgres.phone(dataset.phones[ThreadLocalRandom.current().nextInt(dataset.size)]))));

        run(Load.openLoop("GET /v1/search q, a name as typed", rate(50), options.warmup(), options.duration(),
                () -> get("/v1/search?limit=20&q=" + encode(typedName(dataset)))));
        run(Load.openLoop("raw Elasticsearch q query", rate(50), options.warmup(), options.duration(),
                () -> async(() -> ElasticBaseline.search(new SearchCriteria(null, null, null, null, null, null,
                        TypedQuery.parse(typedName(dataset), names))))));
    }

    /**
     * A profile's possible duplicates through the service, the raw Elasticsearch query it sends beside it, then how
     * well they find the planted duplicates ({@link MatchQuality}).
     */
    private void matches(Dataset dataset) throws Exception {
        var asked = new ArrayList<UUID>();
        var queries = new ArrayList<SearchRequest>();
        var random = new SplittableRandom(options.seed());
        var generator = dataset.generator();
        for (int i = 0; i < dataset.size; i++) {
            var data = generator.next().data();
            if (random.nextInt(Math.max(1, dataset.size / 2_000)) == 0) {
                asked.add(dataset.pids.get(i));
                queries.add(MatchQuery.request("profiles", ProfileDocument.of(dataset.pids.get(i), dataset.uid(i), null, 1,
                        data, Instant.now(), names), MatchService.WEIGHTS));
            }
        }
        run(Load.openLoop("GET /v1/profiles/{pid}/matches", rate(50), options.warmup(), options.duration(),
                () -> get("/v1/profiles/" + asked.get(ThreadLocalRandom.current().nextInt(asked.size())) + "/matches")));
        run(Load.openLoop("raw Elasticsearch matches query", rate(50), options.warmup(), options.duration(),
                () -> async(() -> TestStack.backends().elasticsearch().search(
                        queries.get(ThreadLocalRandom.current().nextInt(queries.size())), JsonNode.class))));
        var quality = MatchQuality.measure(dataset, pid -> {
            var reply = http.get("/v1/profiles/" + pid + "/matches").join();
            try {
                return JSON.readTree(reply.getBodyBytes());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, Math.max(100, (int) (5_000 * options.scale())), options.seed());
        sections.add("## Possible duplicates: how many are found\n" + MatchQuality.markdown(quality));
        System.out.printf("matches: recall %.1f%% of %,d planted pairs%n", 100 * quality.recall(), quality.pairs());
    }

    /**
     * The same surname searches, as many as 8 callers can make back to back, with a platform's key and with an
     * operator's: the operator's record is committed before each answer, the platform's is queued and committed after
     * it by a writer of its own, so the ratio of the two rates is what waiting for the record costs a look-up. Measured in four halves, platform, operator,
     * operator, platform, so that neither is favoured by coming first or last (the JIT, Elasticsearch's caches,
     * a merge that ends meanwhile); each caller's two halves are one result.
     */
    private void searchesByCaller(Dataset dataset) {
        var prefixes = new String[4096];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = "/v1/search?limit=20&surname=" + encode(surnamePrefix(dataset));
        }
        var halves = new LinkedHashMap<String, List<Load.Result>>();
        for (var caller : List.of(Map.entry(Report.SEARCHES_AS_PLATFORM, TestAuth.PLATFORM),
                Map.entry(Report.SEARCHES_AS_OPERATOR, TestAuth.OPERATOR),
                Map.entry(Report.SEARCHES_AS_OPERATOR, TestAuth.OPERATOR),
                Map.entry(Report.SEARCHES_AS_PLATFORM, TestAuth.PLATFORM))) {
            var next = new AtomicInteger();
            halves.computeIfAbsent(caller.getKey(), k -> new ArrayList<>()).add(Load.closedLoop(caller.getKey(),
                    Report.SEARCH_CALLERS, 1, options.warmup().dividedBy(2), options.duration().dividedBy(2),
                    () -> http.get(prefixes[Math.floorMod(next.getAndIncrement(), prefixes.length)], caller.getValue())
                            .thenApply(SimpleHttpResponse::getCode)));
        }
        halves.values().forEach(two -> run(Load.Result.together(two)));
    }

    private void run(Load.Result result) {
        results.add(result);
        System.out.printf("%-50s p50 %6.2f ms  p99 %7.2f ms  all p99 %7.2f ms  %7.1f/s  errors %d  timeouts %d%s%n",
                result.scenario(), result.latencies().getValueAtPercentile(50) / 1000.0,
                result.latencies().getValueAtPercentile(99) / 1000.0, result.all().getValueAtPercentile(99) / 1000.0,
                result.throughput(), result.errors(), result.timeouts(),
                result.firstError() == null ? "" : " (" + result.firstError() + ")");
    }

    /**
     * The dataset, loaded by the import command as a bank would move its profiles in (measured against raw Cassandra
     * writes of the same rows: {@link ImportBench}), unless an earlier run of the same seed loaded it; then the HTTP
     * bulk path and single creates, on profiles of their own, for comparison. A dataset is the first profiles of any
     * larger one of the same seed, so after a run of a smaller size only the profiles beyond it are imported (the
     * size series grows the data so).
     */
    private Dataset load() throws Exception {
        var dataset = Dataset.of(options.seed(), options.profiles());
        int loaded = options.reuse() ? Dataset.loadedPrefix(dataset.size, i -> profileExists(dataset.pids.get(i))) : 0;
        if (loaded == dataset.size) {
            notes.add(String.format("%,d profiles were loaded by an earlier run (seed %d); the import was not measured again",
                    dataset.size, dataset.seed));
            return dataset;
        }
        if (loaded > 0) {
            notes.add(String.format("the first %,d profiles were loaded by an earlier run (seed %d); the import measured "
                    + "the %,d after them", loaded, dataset.seed, dataset.size - loaded));
        }
        var file = ImportBench.writeFile(dataset, loaded, Path.of("target/bench-import"));
        var imported = ImportBench.run(dataset, loaded, file);
        results.add(new Load.Result("import command, given ids, killed halfway and resumed (write phase)", 0,
                imported.writeRate(), new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3), 0, null));
        results.add(new Load.Result("raw Cassandra writes of the same rows, QUORUM, 128 at once", 0,
                imported.raw().rate(), new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3), imported.raw().failed(),
                null));
        sections.add(ImportBench.markdown(imported));
        Files.deleteIfExists(file);

        long indexStart = System.nanoTime();
        awaitIndexed();
        QuietBackends.awaitMergesDone(TestStack.backends().elasticsearch());
        notes.add(String.format("Elasticsearch's merges of the imported segments ended %.1f s after the import",
                (System.nanoTime() - indexStart) / 1e9));
        bulkCreates(Math.min(50_000, dataset.size));
        return dataset;
    }

    /**
     * The HTTP paths of creating, for comparison with the import: the bulk path ({@code count} profiles of another
     * seed, 100 a request, 6 clients, the bodies made before the clock starts) and single creates.
     */
    private void bulkCreates(int count) throws Exception {
        int batch = 100;
        int clients = 6;
        var bodies = requestBodies(Dataset.of(options.seed() + 1, count), batch);
        var next = new AtomicInteger();
        var latencies = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(2), 3);
        var errors = new AtomicLong();
        long started = System.nanoTime();
        var loops = new ArrayList<CompletableFuture<Void>>();
        for (int c = 0; c < clients; c++) {
            loops.add(CompletableFuture.runAsync(() -> {
                for (int request = next.getAndIncrement(); request < bodies.size(); request = next.getAndIncrement()) {
                    long sent = System.nanoTime();
                    var reply = http.post("/v1/profiles:batchCreate", bodies.get(request)).join();
                    latencies.recordValue((System.nanoTime() - sent) / 1000);
                    if (reply.getCode() != 201) {
                        errors.incrementAndGet();
                        throw new IllegalStateException("batch create answered " + reply.getCode() + ": " + reply.getBodyText());
                    }
                }
            }, pool));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
        double seconds = (System.nanoTime() - started) / 1e9;
        results.add(new Load.Result("bulk import, POST /v1/profiles:batchCreate (100 a request, " + clients + " clients)",
                0, count / seconds, latencies, errors.get(), null));
        System.out.printf("bulk import over HTTP: %,d profiles in %.1f s, %,.0f profiles/s%n", count, seconds, count / seconds);
        awaitIndexed();
        var single = Dataset.of(options.seed() + 2, 0).generator();
        run(Load.closedLoop("single creates, POST /v1/profiles (16 clients)", 16, 1, Duration.ofSeconds(2),
                Duration.ofSeconds(Math.max(3, options.duration().toSeconds() / 4)), () -> {
                    String data;
                    synchronized (single) {
                        data = single.next().data().toString();
                    }
                    return post("/v1/profiles", "{\"data\": " + data + "}").thenApply(SimpleHttpResponse::getCode);
                }));
    }

    /** The dataset's profiles as batchCreate bodies of {@code batch} profiles each, UTF-8. */
    private static List<byte[]> requestBodies(Dataset dataset, int batch) {
        var generator = dataset.generator();
        var bodies = new ArrayList<byte[]>();
        for (int from = 0; from < dataset.size; from += batch) {
            var body = new StringBuilder("{\"profiles\": [");
            for (int i = from; i < Math.min(from + batch, dataset.size); i++) {
                body.append(i == from ? "" : ",").append("{\"data\": ").append(generator.next().data()).append('}');
            }
            bodies.add(body.append("]}").toString().getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }

    private boolean profileExists(UUID pid) {
        return get("/v1/profiles/" + pid).join() == 200;
    }

    /** Waits until the outbox and the indexer's queue are empty: everything written is indexed. */
    private void awaitIndexed() {
        var metrics = app.getEnvironment().metrics();
        Awaitility.await("indexing to catch up").atMost(Duration.ofHours(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> ((Number) metrics.getGauges().get("events.outbox.backlog").getValue()).longValue() == 0
                        && ((Number) metrics.getGauges().get("indexer.queue-depth").getValue()).longValue() == 0);
    }

    /** Profiles the update scenarios change: their pids, and the versions of those not in flight. */
    record Updatable(UUID[] pids, ConcurrentHashMap<UUID, Long> versions) {
    }

    /** New profiles at version 1 for the update scenarios, with their versions tracked as they change. */
    private Updatable freshProfiles(int count) {
        var versions = new ConcurrentHashMap<UUID, Long>();
        var generator = new ProfileGenerator(options.seed() + count, 0.1);
        for (int from = 0; from < count; from += 100) {
            var body = new StringBuilder("{\"profiles\": [");
            for (int i = from; i < Math.min(from + 100, count); i++) {
                body.append(i == from ? "" : ",").append("{\"data\": ").append(generator.next()).append('}');
            }
            var reply = post("/v1/profiles:batchCreate", body.append("]}").toString()).join();
            try {
                JSON.readTree(reply.getBodyBytes()).path("created").forEach(c -> versions.put(UUID.fromString(c.path("pid").asText()), 1L));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return new Updatable(versions.keySet().toArray(UUID[]::new), versions);
    }

    /** A PUT of a random profile of the set, at the version it has; a profile in flight is not picked twice. */
    private CompletableFuture<Integer> put(Updatable profiles) {
        return writeTracked(profiles, (pid, expected) -> http.put("/v1/profiles/" + pid, "\"" + expected + "\"",
                "{\"data\": {\"surname\": \"Обновлённая\", \"n\": " + (expected + 1) + "}}")
                .thenApply(SimpleHttpResponse::getCode), this::currentVersion);
    }

    /**
     * A write of a random profile of the set at the version it has, by {@code write} (an answer's status);
     * a profile in flight is not picked twice, so neither a lock nor a stale version is expected.
     */
    private static CompletableFuture<Integer> writeTracked(Updatable profiles,
            BiFunction<UUID, Long, CompletableFuture<Integer>> write, ToLongFunction<UUID> current) {
        var random = ThreadLocalRandom.current();
        UUID pid;
        Long version;
        do {
            pid = profiles.pids()[random.nextInt(profiles.pids().length)];
            version = profiles.versions().remove(pid);
        } while (version == null);
        long expected = version;
        UUID picked = pid;
        return write.apply(pid, expected).handle((status, failure) -> {
            // an answer that did not come leaves the version unknown: the profile is read again before its next turn
            long now = status != null && status == 200 ? expected + 1
                    : status != null ? expected : current.applyAsLong(picked);
            profiles.versions().put(picked, now);
            if (failure != null) {
                throw new CompletionException(failure);
            }
            return status;
        });
    }

    private long currentVersion(UUID pid) {
        try {
            var reply = http.get("/v1/profiles/" + pid).get(1, TimeUnit.MINUTES);
            return JSON.readTree(reply.getBodyBytes()).path("version").asLong();
        } catch (Exception e) {
            throw new IllegalStateException("profile " + pid + " could not be read back", e);
        }
    }

    private CompletableFuture<Integer> get(String path) {
        return http.get(path).thenApply(SimpleHttpResponse::getCode);
    }

    private CompletableFuture<SimpleHttpResponse> post(String path, String body) {
        return http.post(path, body);
    }

    /** Work that answers with its own status (the PostgreSQL baseline's update), on the pool. */
    private CompletableFuture<Integer> answered(Callable<Integer> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, pool);
    }

    /** Work that throws when it finds nothing (a read, a search), on the pool: 200 when it returns. */
    private CompletableFuture<Integer> async(Callable<Object> work) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                work.call();
                return 200;
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        }, pool);
    }

    /** A prefix of 2 to 6 letters of a random profile's surname, half of the Cyrillic ones typed in Latin. */
    private String surnamePrefix(Dataset dataset) {
        var random = ThreadLocalRandom.current();
        String surname = dataset.surnames[random.nextInt(dataset.size)].split("-")[0];
        if (random.nextBoolean() && surname.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.CYRILLIC)) {
            surname = romanize.transliterate(surname);
        }
        int length = Math.min(surname.length(), 2 + random.nextInt(5));
        return surname.substring(0, length).toLowerCase(Locale.ROOT);
    }

    /**
     * A person as an operator types them into the search box: the whole surname and the first letters of the first
     * name, in either order, a third of them in Latin letters.
     */
    private String typedName(Dataset dataset) {
        var random = ThreadLocalRandom.current();
        int i = random.nextInt(dataset.size);
        String surname = dataset.surnames[i];
        String first = dataset.firstNames[i];
        first = first.substring(0, Math.min(first.length(), 1 + random.nextInt(4)));
        String typed = random.nextBoolean() ? surname + " " + first : first + " " + surname;
        if (random.nextInt(3) == 0 && typed.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.CYRILLIC)) {
            typed = romanize.transliterate(typed);
        }
        return typed.toLowerCase(Locale.ROOT);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** From an acknowledged create to the moment search by its phone finds it. */
    private Load.Result indexLag() {
        int samples = Math.max(20, (int) (200 * options.scale()));
        var latencies = Load.histogram();
        var all = Load.histogram();
        var errors = new AtomicLong();
        var timeouts = new AtomicLong();
        var remaining = new AtomicInteger(samples);
        var loops = new ArrayList<CompletableFuture<Void>>();
        long started = System.nanoTime();
        for (int c = 0; c < 5; c++) {
            loops.add(CompletableFuture.runAsync(() -> {
                while (remaining.getAndDecrement() > 0) {
                    String phone = "7999" + String.format("%07d", ThreadLocalRandom.current().nextInt(10_000_000));
                    var created = post("/v1/profiles", "{\"data\": {\"surname\": \"Лагова\", \"phones\": [\"" + phone + "\"]}}").join();
                    long acknowledged = System.nanoTime();
                    if (created.getCode() != 201) {
                        errors.incrementAndGet(); // no write, no lag: in no percentile
                        continue;
                    }
                    long deadline = acknowledged + TimeUnit.SECONDS.toNanos(30);
                    boolean found = false;
                    while (!found && System.nanoTime() < deadline) {
                        found = searchFinds(phone);
                        if (!found) {
                            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10)); // the poll interval
                        }
                    }
                    long took = (System.nanoTime() - acknowledged) / 1000;
                    all.recordValue(took); // one not found in 30 s counts there at 30 s
                    if (found) {
                        latencies.recordValue(took);
                    } else {
                        timeouts.incrementAndGet();
                    }
                }
            }, pool));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).join();
        return new Load.Result("index lag: acknowledged write to search hit", 0,
                latencies.getTotalCount() / ((System.nanoTime() - started) / 1e9), latencies, all, errors.get(),
                timeouts.get(), new TreeMap<>(), null, null);
    }

    private boolean searchFinds(String phone) {
        try {
            var reply = http.get("/v1/search?phone=" + phone).get(10, TimeUnit.SECONDS);
            JsonNode answer = JSON.readTree(reply.getBodyBytes());
            return answer.path("items").size() > 0;
        } catch (Exception e) {
            return false;
        }
    }

    static SearchIndex searchIndex() {
        return new SearchIndex(TestStack.backends().elasticsearch(), "profiles");
    }
}
