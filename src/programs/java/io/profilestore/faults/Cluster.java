package io.profilestore.faults;

import io.profilestore.ProfileStoreApplication;
import io.profilestore.stack.LocalStack;
import io.profilestore.stack.PostgresStandby;
import io.profilestore.stack.Prerequisites;
import io.profilestore.stack.StackSettings;
import io.profilestore.testing.ChildClasspath;
import io.profilestore.testing.FreePorts;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * What the fault suite runs and breaks: a stack of its own (three Cassandra nodes on 127.0.0.1-3 at RF 3,
 * PostgreSQL, RabbitMQ, Elasticsearch) in a folder and on free ports of its own, two API processes and an
 * indexer process, each a JVM configured by its environment as in production.
 */
final class Cluster implements AutoCloseable {

    final Path dir;
    final LocalStack stack;
    /** PostgreSQL's synchronous standby, when the run fails PostgreSQL over; else null. */
    final PostgresStandby standby;
    final List<Instance> apis = new ArrayList<>();
    final Instance indexer;
    private final Map<String, String> environment;

    private Cluster(Path dir, LocalStack stack, PostgresStandby standby, Map<String, String> environment, Path logs)
            throws IOException {
        this.dir = dir;
        this.stack = stack;
        this.standby = standby;
        this.environment = environment;
        for (int i = 1; i <= 2; i++) {
            apis.add(new Instance("api-" + i, "server", environment, FreePorts.next(), FreePorts.next(), logs.resolve("api-" + i + ".log")));
        }
        this.indexer = new Instance("indexer", "indexer", environment, FreePorts.next(), FreePorts.next(), logs.resolve("indexer.log"));
    }

    /** The network partitions of the run (its own nftables table). */
    final Partitions partitions = new Partitions("profile_store_faults_" + ProcessHandle.current().pid());

    /** The ports PostgreSQL listens on: the primary's, and the standby's when there is one. */
    List<Integer> postgresPorts() {
        var ports = new ArrayList<Integer>();
        var matcher = Pattern.compile("127\\.0\\.0\\.1:(\\d+)").matcher(postgresUrl());
        while (matcher.find()) {
            ports.add(Integer.parseInt(matcher.group(1)));
        }
        return ports;
    }

    /** The PostgreSQL the processes use: the primary alone, or both (primary and standby) when failing over. */
    String postgresUrl() {
        return environment.get("POSTGRES_URL");
    }

    /**
     * Starts it all, once this machine has what the run needs (installed now if it can be, else a failure that lists
     * what is missing, before anything starts): {@code partitions}, whether the run cuts processes off (nftables).
     */
    static Cluster start(Path logs, boolean withStandby, boolean partitions) throws Exception {
        Files.createDirectories(logs);
        var dir = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-faults-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        var shared = StackSettings.fromEnvironment();
        var own = new HashMap<String, String>();
        own.put("PROFILE_STORE_STACK", "local");
        own.put("PROFILE_STORE_STACK_DIR", dir.toString());
        own.put("PROFILE_STORE_STACK_DIST_DIR", shared.distDir().toString());
        own.put("PROFILE_STORE_STACK_USER", shared.serviceUser());
        own.put("profileStore.projectDir", shared.projectDir().toString());
        own.put("PROFILE_STORE_CASSANDRA_NODES", "3");
        own.put("PROFILE_STORE_CASSANDRA_HEAP", "384m");
        own.put("PROFILE_STORE_ELASTICSEARCH_HEAP", "384m");
        for (var port : List.of("PROFILE_STORE_CASSANDRA_PORT", "PROFILE_STORE_CASSANDRA_STORAGE_PORT",
                "PROFILE_STORE_ELASTICSEARCH_PORT", "PROFILE_STORE_ELASTICSEARCH_TRANSPORT_PORT",
                "PROFILE_STORE_POSTGRES_PORT", "PROFILE_STORE_RABBITMQ_PORT", "PROFILE_STORE_RABBITMQ_DIST_PORT",
                "PROFILE_STORE_RABBITMQ_EPMD_PORT")) {
            own.put(port, Integer.toString(FreePorts.next()));
        }
        // JDKs, packages and the like as this machine has them; everything the stack is made of, its own
        var settings = StackSettings.from(name -> own.containsKey(name) ? own.get(name) : System.getenv(name));
        try {
            Prerequisites.prepareForFaultSuite(settings, partitions, FaultSuite::say);
        } catch (RuntimeException e) {
            new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor(2, TimeUnit.MINUTES);
            throw e;
        }
        var stack = LocalStack.start(settings, LocalStack.Service.all());
        PostgresStandby standby = null;
        try {
            var environment = new HashMap<>(stack.endpoints().environment());
            if (withStandby) {
                standby = PostgresStandby.start(stack, FreePorts.next());
                environment.put("POSTGRES_URL", standby.failoverJdbcUrl());
            }
            environment.put("CASSANDRA_REPLICATION_FACTOR", "3");
            environment.put("PROFILE_STORE_API_KEYS_FILE", TestAuth.keysFile().toString());
            environment.put("PROFILE_STORE_NUMBER_KEYS", TestAuth.NUMBER_KEYS);
            // the workload merges as an editor, a person: at a person's pace its merges would mostly be refused 429
            environment.putAll(TestStack.peopleUnlimitedEnvironment());
            environment.put("LOG_LEVEL", "WARN");
            var cluster = new Cluster(dir, stack, standby, environment, logs);
            try {
                cluster.migrate(logs.resolve("migrate.log"));
                for (var api : cluster.apis) {
                    api.start();
                }
                cluster.indexer.start();
            } catch (Exception | Error e) {
                for (var instance : cluster.all()) {
                    instance.stop();
                }
                throw e;
            }
            return cluster;
        } catch (Exception | Error e) { // an Error too: a StackOverflowError once left a whole cluster running
            if (standby != null) {
                standby.close();
            }
            stack.leave();
            new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor(2, TimeUnit.MINUTES);
            throw e;
        }
    }

    /** The schema, as the chart's migrate hook applies it: a child process of the service's own command. */
    private void migrate(Path log) throws IOException, InterruptedException {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        var builder = new ProcessBuilder(java, "-Xmx256m", "-cp", ChildClasspath.current(),
                ProfileStoreApplication.class.getName(), "migrate", "profile-store.yml")
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        var process = builder.start();
        if (!process.waitFor(3, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("migrate failed:\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    List<Instance> all() {
        var all = new ArrayList<>(apis);
        all.add(indexer);
        return all;
    }

    /** Everything that may be down is up again, and every process healthy. */
    void heal(Duration within) {
        for (var instance : all()) {
            instance.awaitHealthy(within);
        }
    }

    private boolean closed;

    /** Stops what it started (once; the shutdown hook may come after the end of a run). */
    @Override
    public synchronized void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        partitions.close();
        for (var instance : all()) {
            instance.stop();
        }
        if (standby != null) {
            standby.close();
        }
        stack.leave();
        var rm = new ProcessBuilder("rm", "-rf", dir.toString()).start();
        rm.waitFor(2, TimeUnit.MINUTES);
    }


    static Duration seconds(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
