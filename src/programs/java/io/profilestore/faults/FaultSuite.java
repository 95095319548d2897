package io.profilestore.faults;

import io.profilestore.changestream.ChangeStreamSettings;
import io.profilestore.testing.TestAuth;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The fault suite: a stack of its own with three Cassandra nodes at RF 3, two API processes and an indexer, a
 * workload of every kind of change from many clients, faults injected on a schedule from the seed, then a check of
 * the history and the final state. Its last line: {@code faults: <A> acknowledged, <L> lost, <V> invariant
 * violations, <D> index drift after <S> s, <U> unexplained, <N> undecided}. faults/README.md says what it proves and how to read its report.
 *
 * <pre>
 * ./faults/run                 about 15 minutes of faults (the committed results)
 * ./faults/run --quick         four faults in a couple of minutes (mvn verify runs it)
 * ./faults/run --seed 7 --duration 600 --out DIR
 * ./faults/run --quick --runs 10   ten quick runs, seeds 20261201 to 20261210, reports in target/faults-quick/seed-N/
 * </pre>
 */
public final class FaultSuite {

    /** What to run; {@code runs} of them, with consecutive seeds from {@code seed}. */
    record Options(long seed, Duration duration, int clients, boolean quick, Path out, String command, int runs) {

        static final String USAGE = "--quick, --seed N, --duration SECONDS, --clients N, --out DIR, --runs N";

        static Options parse(String[] args) {
            long seed = 20261201;
            Duration duration = Duration.ofMinutes(12);
            int clients = 12;
            boolean quick = false;
            int runs = 1;
            Path out = Path.of("faults/results/" + LocalDate.now());
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--seed" -> seed = Long.parseLong(value(args, ++i));
                    case "--duration" -> duration = Duration.ofSeconds(Long.parseLong(value(args, ++i)));
                    case "--clients" -> clients = Integer.parseInt(value(args, ++i));
                    case "--out" -> out = Path.of(value(args, ++i));
                    case "--runs" -> runs = Integer.parseInt(value(args, ++i));
                    case "--quick" -> {
                        quick = true;
                        duration = Duration.ofSeconds(100);
                        clients = 8;
                        out = Path.of("target/faults-quick");
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i] + " (" + USAGE + ")");
                }
            }
            if (runs < 1) {
                throw new IllegalArgumentException("--runs takes a number of runs, 1 or more; not " + runs);
            }
            return new Options(seed, duration, clients, quick, out, String.join(" ", args), runs);
        }

        private static String value(String[] args, int i) {
            if (i >= args.length) {
                throw new IllegalArgumentException(args[i - 1] + " takes a value (" + USAGE + ")");
            }
            return args[i];
        }

        /**
         * The i-th of several runs (from 0): seed + i, its report in {@code <out>/seed-<seed + i>/}, and the command
         * that runs it alone. One run is itself.
         */
        Options forRun(int i) {
            if (runs == 1) {
                return this;
            }
            long its = seed + i;
            var folder = out.resolve("seed-" + its);
            var words = new ArrayList<String>();
            var given = command.isBlank() ? new String[0] : command.split(" ");
            for (int w = 0; w < given.length; w++) {
                switch (given[w]) {
                    case "--runs", "--seed", "--out" -> w++; // replaced below
                    default -> words.add(given[w]);
                }
            }
            words.addAll(List.of("--seed", Long.toString(its), "--out", folder.toString()));
            return new Options(its, duration, clients, quick, folder, String.join(" ", words), 1);
        }
    }

    /** What a run found: the numbers of its last line, and the parts of its report. */
    record Outcome(long acknowledged, long lost, long violations, long drift, long convergedAfterSeconds,
            HistoryChecker.Result history, String tableCheck, List<Fault.Injected> faults, List<String> driftFound,
            StreamCheck.Result stream) {

        /** Groups of profiles that no choice of the unknown outcomes explains (each is a violation too). */
        long unexplained() {
            return history.unexplained();
        }

        /** Groups of profiles the checker's search could not decide within its budget: no proof for them. */
        long undecided() {
            return history.undecided().size();
        }

        /** Nothing lost, no invariant broken, no index drift, and every group of profiles decided. */
        boolean passed() {
            return lost == 0 && violations == 0 && drift == 0 && undecided() == 0;
        }

        String lastLine() {
            return "faults: " + acknowledged + " acknowledged, " + lost + " lost, " + violations + " invariant violations, "
                    + drift + " index drift after " + convergedAfterSeconds + " s, " + unexplained() + " unexplained, "
                    + undecided() + " undecided";
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The cluster of the run in progress, for the shutdown hook. */
    private static final AtomicReference<Cluster> CURRENT =
            new AtomicReference<>();
    private static final Duration CONVERGENCE_BOUND = Duration.ofMinutes(3);

    public static void main(String[] args) throws Exception {
        // Ctrl-C: the stack of its own and every process it froze or started go too
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            var running = CURRENT.get();
            if (running != null) {
                try {
                    running.close();
                } catch (Exception e) {
                    System.err.println("could not stop everything the fault suite started: " + e);
                }
            }
        }, "faults-shutdown"));
        var options = Options.parse(args);
        if (options.runs() == 1) {
            var outcome = run(options);
            System.out.println(outcome.lastLine());
            System.exit(outcome.passed() ? 0 : 1);
        }
        boolean passed = SeededRuns.run(options, one -> {
            var outcome = run(one);
            return new SeededRuns.Finished(outcome.lastLine(), outcome.passed());
        }, FaultSuite::say);
        System.exit(passed ? 0 : 1);
    }

    static Outcome run(Options options) throws Exception {
        Files.createDirectories(options.out());
        long runStart = System.nanoTime();
        var wall = Instant.now();
        long runStartEpochNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
        say("starting a stack of three Cassandra nodes, PostgreSQL, RabbitMQ, Elasticsearch, two API processes "
                + "and an indexer ...");
        var plan = Fault.plan(options.seed(), options.duration(), options.quick());
        var schedule = FaultSchedule.of(plan, options.seed(), options.quick());
        try (var cluster = Cluster.start(options.out().resolve("logs"), plan.contains(Fault.POSTGRES_FAILOVER),
                plan.stream().anyMatch(Fault::partitions))) {
            CURRENT.set(cluster);
            var workload = new Workload(cluster.apis, runStart);
            workload.seed(options.quick() ? 10 : 30, 3);
            // from half the workload's time on, mostly merges and unmerges, while the faults go on, to the end (a
            // restarted instance starts at a higher priority, Instance.BOOST, so merges at full tilt no longer hold
            // its start past its bound)
            workload.mergeHeavyFrom(options.duration().dividedBy(2));
            say("workload: " + options.clients() + " clients for " + options.duration().toSeconds() + " s; faults: "
                    + schedule);

            var faults = new ArrayList<Fault.Injected>();
            var injector = CompletableFuture.runAsync(() -> inject(cluster, schedule, options, runStart, faults));
            // the workload goes on until the last fault has healed, and 20 s after
            var quietAfterLast = new AtomicLong(Long.MAX_VALUE);
            injector.whenComplete((ok, failed) -> quietAfterLast.set(System.nanoTime() + TimeUnit.SECONDS.toNanos(20)));
            workload.run(options.clients(), options.seed(), options.duration(),
                    () -> System.nanoTime() > quietAfterLast.get());
            injector.get(1, TimeUnit.MINUTES);

            say("healing: every process healthy, interrupted merges completed ...");
            var unhealed = new ArrayList<String>();
            try {
                cluster.heal(Duration.ofMinutes(3));
                awaitNoPendingOperations(cluster);
            } catch (ConditionTimeoutException e) {
                unhealed.add("did not heal in time: " + e.getMessage());
            }
            var history = workload.history();
            var reader = new FinalStateReader(cluster, runStartEpochNanos);
            var before = reader.read(List.of());
            var tableCheck = checkTables(cluster);
            say("index: waiting for it to equal Cassandra ...");
            long convergeStart = System.nanoTime();
            var after = awaitIndexEqualsCassandra(reader, tableCheck.findings());
            long converged = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - convergeStart);
            // judged as check-tables found it, before it repaired anything
            var judged = new FinalState(before.profiles(), before.users(), before.links(), before.operations(),
                    before.audit(), before.index(), tableCheck.findings(), before.versionWriters());
            var result = HistoryChecker.check(history, judged);
            var drift = IndexDrift.of(after);
            say("stream: waiting for every version of the history to be on the change stream ...");
            var stream = awaitStream(cluster, reader, history);
            say(stream.line());
            result.violations().addAll(stream.violations());

            result.violations().addAll(unhealed);
            long violations = result.violations().size() + tableCheck.disagreementsLeft();
            var outcome = new Outcome(result.acknowledged(), result.lost(), violations, drift.size(), converged, result,
                    tableCheck.report(), faults, drift, stream);
            FaultReport.write(options, outcome, history, runStart);
            return outcome;
        }
    }

    private static void inject(Cluster cluster, List<FaultSchedule.Step> schedule, Options options, long runStart,
            List<Fault.Injected> done) {
        var random = new SplittableRandom(options.seed());
        // a quiet spell between faults: the system recovers, and the workload shows it did (the quick run, on every
        // build, keeps it shorter: a few seconds show the recovery as well)
        int quietMillis = options.quick() ? 5_000 : 10_000;
        var together = Executors.newSingleThreadExecutor();
        try {
            for (var step : schedule) {
                Thread.sleep(quietMillis + random.nextInt(quietMillis));
                // each fault's own draws (its target), split off before either runs: the same seed, the same targets
                var firstRandom = random.split();
                var secondRandom = random.split();
                say("fault: " + step.first().description);
                var first = together.submit(() -> record(step.first().inject(cluster, firstRandom, runStart), done));
                if (step.second() != null) {
                    Thread.sleep(step.after().toMillis());
                    say("fault, while the one before holds: " + step.second().description);
                    record(step.second().inject(cluster, secondRandom, runStart), done);
                }
                // bounded: a fault's heal waits at most minutes for a start (Instance.START_WITHIN)
                first.get(10, TimeUnit.MINUTES);
                cluster.heal(Duration.ofMinutes(3));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("injecting a fault failed", e);
        } finally {
            together.shutdownNow();
        }
    }

    private static Fault.Injected record(Fault.Injected injected, List<Fault.Injected> done) {
        synchronized (done) {
            done.add(injected);
        }
        return injected;
    }

    /** Merges an instance left half done are completed (or abandoned) by the recovery after its delay. */
    private static void awaitNoPendingOperations(Cluster cluster) throws Exception {
        var env = cluster.stack.endpoints();
        Awaitility.await("the recovery to finish every interrupted merge and unmerge").atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1)).until(() -> {
                    try (var connection = DriverManager.getConnection(cluster.postgresUrl(), env.postgresUser(),
                            env.postgresPassword());
                            var rows = connection.createStatement().executeQuery(
                                    "SELECT count(*) FROM user_operation WHERE state = 'pending'")) {
                        rows.next();
                        return rows.getLong(1) == 0;
                    }
                });
    }

    /**
     * What check-tables repaired (its findings, each by its ids, for the checker to explain), and what a second look
     * still found (which must be nothing).
     */
    record TableCheck(String report, List<String> findings, long disagreementsLeft) {
    }

    private static TableCheck checkTables(Cluster cluster) throws Exception {
        var admin = cluster.apis.get(0).admin();
        String repaired = task(admin.resolve("/tasks/check-tables?list=true"));
        String dryRun = task(admin.resolve("/tasks/check-tables?dryRun=true&list=true"));
        long left = 0;
        for (var line : dryRun.lines().toList()) {
            // the indented lines, one per kind of disagreement: "  <kind>: <found>, <repaired> <verb>"
            var matcher = Pattern.compile("^\\s+[^:]+:\\s*(\\d+),").matcher(line);
            if (matcher.find()) {
                left += Long.parseLong(matcher.group(1));
            }
        }
        var findings = repaired.lines().filter(line -> line.startsWith("  - ")).map(line -> line.substring(4)).toList();
        return new TableCheck(repaired.strip() + "\nthen, looked at again:\n" + dryRun.strip(), findings, left);
    }

    private static String task(URI uri) throws Exception {
        var reply = HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
                .header("Authorization", "Bearer " + TestAuth.PLATFORM_AND_ADMIN)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + reply.statusCode() + ": " + reply.body());
        }
        return reply.body();
    }

    /**
     * Waits (at most three minutes) until the index holds every profile as Cassandra has it, and nothing else; returns
     * the state then (or at the bound).
     */
    private static FinalState awaitIndexEqualsCassandra(FinalStateReader reader, List<String> repairs) throws Exception {
        var latest = new AtomicReference<FinalState>();
        try {
            Awaitility.await("the index to equal Cassandra").atMost(CONVERGENCE_BOUND).pollInterval(Duration.ofSeconds(1))
                    .ignoreExceptions().until(() -> {
                        latest.set(reader.read(repairs));
                        return IndexDrift.of(latest.get()).isEmpty();
                    });
        } catch (ConditionTimeoutException e) {
            latest.set(reader.read(repairs));
        }
        return latest.get();
    }

    /**
     * Reads the change stream from its start until it tells every version the history holds (at most the convergence
     * bound: the publisher may still be catching up after the faults), then judges it.
     */
    private static StreamCheck.Result awaitStream(Cluster cluster, FinalStateReader reader, List<Event> history)
            throws Exception {
        var versions = reader.versions();
        try (var stream = new StreamReader(cluster.stack.endpoints().rabbitmqUri(), STREAM)) {
            try {
                Awaitility.await("the change stream to tell every version").atMost(CONVERGENCE_BOUND)
                        .pollInterval(Duration.ofSeconds(1)).until(() -> StreamCheck.complete(versions, stream.events()));
                // what a late repeat or an event that should not be would add comes within moments
                Thread.sleep(2_000);
            } catch (ConditionTimeoutException e) {
                // judged as it stands: what is missing is said
            }
            var events = stream.events();
            return StreamCheck.acknowledged(StreamCheck.check(versions, events), history, events);
        }
    }

    /** The change stream's queue: the service's default (changeStream.queue), which the suite's processes keep. */
    private static final String STREAM = new ChangeStreamSettings().queue;

    static void say(String line) {
        System.out.printf("%tT %s%n", System.currentTimeMillis(), line);
        System.out.flush();
    }

    private FaultSuite() {
    }
}
