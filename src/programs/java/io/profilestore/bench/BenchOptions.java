package io.profilestore.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Set;
import java.util.TreeSet;

/**
 * What to run. {@code scale} multiplies every rate (the quick run uses less). {@code reuse}: profiles an earlier
 * run loaded are used again (the quick run loads its few every time, so that it measures the import too, unless
 * {@code --reuse} says otherwise).
 * {@code keepStack}: the stack is left running when the run ends, its services warm for the next run (a stack
 * started afresh compiles Elasticsearch's write path during the first writes it measures).
 */
record BenchOptions(int profiles, long seed, Duration warmup, Duration duration, double scale, Path out, boolean reuse,
        Set<String> only, boolean keepStack, boolean postgresFast, int cluster, String command) {

    /** The groups of scenarios {@code --only} names (all run without it). */
    static final Set<String> GROUPS = Set.of("import", "reads", "put", "contention", "mix", "search", "matches",
            "callers", "lag", "stream");

    boolean runs(String group) {
        return only.isEmpty() || only.contains(group);
    }

    static BenchOptions parse(String[] args) {
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
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (./bench/run --help lists them)");
            }
        }
        return new BenchOptions(profiles, seed, warmup, duration, scale, out, reuse || reuseAsked, only, keepStack,
                postgresFast, cluster, String.join(" ", args));
    }

    /** A scenario's rate at this run's scale: at least one a second. */
    double rate(double full) {
        return Math.max(1, full * scale);
    }
}
