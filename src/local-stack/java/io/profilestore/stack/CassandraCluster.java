package io.profilestore.stack;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.awaitility.Awaitility;

/**
 * Cassandra 5.0 nodes from Maven Central's cassandra-all, each its own JVM on a JDK 17 with Cassandra's jars on
 * its own classpath. Node i listens on 127.0.0.i with the same ports; nodes start one after another (a node
 * joins through the seed, 127.0.0.1) and each owns one evenly spaced token, so no bootstrap streaming is needed.
 */
final class CassandraCluster implements LocalService {

    /** The superuser Cassandra makes at first start when logins are on; its password is its name. */
    static final String SUPERUSER = "cassandra";

    private final StackSettings settings;
    private final List<Process> launched = new ArrayList<>();

    CassandraCluster(StackSettings settings) {
        this.settings = settings;
    }

    @Override
    public String name() {
        return "cassandra";
    }

    private Path nodeDir(int node) {
        return settings.dir().resolve("cassandra/node" + node);
    }

    private String host(int node) {
        return "127.0.0." + node;
    }

    @Override
    public Path log() {
        return nodeDir(1).resolve("logs/system.log");
    }

    /** A node's JVM writes its own output (a bad flag, a missing JDK) before its logger writes system.log. */
    @Override
    public List<Path> startLogs() {
        return List.of(nodeDir(1).resolve("logs/stdout.log"), log());
    }

    OptionalLong nodePid(int node) {
        var pid = Processes.readPidFile(nodeDir(node).resolve("cassandra.pid"));
        return pid.isPresent() && Processes.isOurs(pid.getAsLong(), nodeDir(node).toString()) ? pid : OptionalLong.empty();
    }

    @Override
    public List<Long> runningPids() {
        var pids = new ArrayList<Long>();
        for (int node = 1; node <= settings.cassandraNodes(); node++) {
            nodePid(node).ifPresent(pids::add);
        }
        return pids;
    }

    @Override
    public void launch() {
        Binaries.ensure(settings);
        for (int node = 1; node <= settings.cassandraNodes(); node++) {
            if (nodePid(node).isEmpty()) {
                startNode(node);
            }
        }
    }

    /** Starts one node on its data and waits until it takes CQL connections (failure tests restart nodes). */
    void startNode(int node) {
        var jdk = Jdks.forCassandra(settings);
        launchNode(node, jdk);
        Awaitility.await("Cassandra node " + node + " to accept CQL connections")
                .atMost(settings.startTimeout())
                .pollInterval(Duration.ofMillis(250))
                .failFast("Cassandra node " + node + " exited; see " + nodeDir(node).resolve("logs"),
                        () -> nodePid(node).isEmpty())
                .until(() -> Ports.open(host(node), settings.cassandraPort()));
    }

    /** Stops one node the polite way: it tells its peers it is going. */
    void stopNode(int node) {
        nodePid(node).ifPresent(pid -> Processes.stop(pid, "TERM", Duration.ofSeconds(60)));
    }

    /** Kills one node without warning, as a crash would: its peers notice only after failure detection. */
    void killNode(int node) {
        nodePid(node).ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    /** Freezes one node (SIGSTOP) or lets it go on (SIGCONT): a node that hangs and keeps its connections. */
    void signalNode(int node, String signal) {
        var pid = nodePid(node);
        if (pid.isEmpty()) {
            throw new IllegalStateException("Cassandra node " + node + " is not running");
        }
        Processes.run(Duration.ofSeconds(10), "kill", "-" + signal, Long.toString(pid.getAsLong()));
    }

    private void launchNode(int node, Jdks.Jdk jdk) {
        Path dir = nodeDir(node);
        try {
            for (String sub : List.of("conf", "data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs", "tmp",
                    "triggers")) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.writeString(dir.resolve("conf/cassandra.yaml"), cassandraYaml(node, dir));
            Files.writeString(dir.resolve("conf/logback.xml"), logbackXml(dir));
            try (InputStream args = getClass().getResourceAsStream("cassandra-jvm17.args")) {
                Files.write(dir.resolve("conf/jvm17.args"), args.readAllBytes());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dir, e);
        }
        Path lib = Binaries.cassandraLib(settings);
        var command = new ArrayList<String>();
        if (Processes.isRoot()) {
            // as root, mlockall would pin gigabytes and slow the start down: drop the capability that allows it
            command.addAll(List.of("setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock", "--"));
        }
        command.addAll(List.of(jdk.java().toString(),
                "-Xms" + settings.cassandraHeap(), "-Xmx" + settings.cassandraHeap(),
                // the quick compiler alone starts a node seconds sooner, which tests want; a benchmark wants both
                settings.cassandraFullJit() ? "-XX:+TieredCompilation" : "-XX:TieredStopAtLevel=1",
                "@" + dir.resolve("conf/jvm17.args"),
                "-javaagent:" + lib.resolve("jamm-0.4.0.jar"),
                "-Dcassandra.config=" + dir.resolve("conf/cassandra.yaml").toUri(),
                "-Dlogback.configurationFile=" + dir.resolve("conf/logback.xml"),
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + dir.resolve("logs"),
                "-Dcassandra-foreground=yes",
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                "-Dcassandra.ring_delay_ms=1000",
                // with logins on, the default superuser is made at once, not 10 s after the node is up
                "-Dcassandra.superuser_setup_delay_ms=0",
                "-Dcassandra.triggers_dir=" + dir.resolve("triggers"),
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Djna.tmpdir=" + dir.resolve("tmp"),
                "-cp", lib + "/*",
                "org.apache.cassandra.service.CassandraDaemon"));
        var process = Processes.launch(command, Map.of(), dir.resolve("logs/stdout.log"));
        // setsid and setpriv exec the JVM in place, so the child's pid is Cassandra's
        Processes.writePidFile(dir.resolve("cassandra.pid"), process.pid());
        launched.add(process);
    }

    private String cassandraYaml(int node, Path dir) {
        // one token per node, evenly spaced over the Murmur3 range
        BigInteger step = BigInteger.TWO.pow(64).divide(BigInteger.valueOf(settings.cassandraNodes()));
        BigInteger token = BigInteger.valueOf(Long.MIN_VALUE).add(step.multiply(BigInteger.valueOf(node - 1L)));
        return """
                cluster_name: profile-store-local
                num_tokens: 1
                initial_token: %s
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "127.0.0.1:%d"
                listen_address: %s
                rpc_address: %s
                storage_port: %d
                native_transport_port: %d
                endpoint_snitch: SimpleSnitch
                auto_bootstrap: false
                auto_snapshot: false
                phi_convict_threshold: 5
                commitlog_sync: periodic
                commitlog_sync_period: 10000ms
                # an eighth of the heap each: small for tests, room for a million-profile import
                memtable_heap_space: %dMiB
                memtable_offheap_space: %dMiB
                concurrent_compactors: 1
                # a batch update of 100 full documents, and a merge, are one logged batch of several MiB
                batch_size_warn_threshold: 1MiB
                batch_size_fail_threshold: 16MiB
                commitlog_segment_size: 64MiB
                data_file_directories: [%s]
                commitlog_directory: %s
                saved_caches_directory: %s
                hints_directory: %s
                cdc_raw_directory: %s
                """.formatted(token, settings.cassandraStoragePort(), host(node), host(node),
                settings.cassandraStoragePort(), settings.cassandraPort(), memtableMiB(), memtableMiB(), dir.resolve("data"),
                dir.resolve("commitlog"), dir.resolve("saved_caches"), dir.resolve("hints"), dir.resolve("cdc_raw"))
                + authYaml() + clientTlsYaml();
    }

    /** Logins and grants as in production (the superuser cassandra/cassandra is made at first start). */
    private String authYaml() {
        return !settings.cassandraPasswordAuth() ? "" : """
                authenticator: PasswordAuthenticator
                authorizer: CassandraAuthorizer
                role_manager: CassandraRoleManager
                roles_validity: 0ms
                permissions_validity: 0ms
                """;
    }

    /** TLS on the CQL port beside plain CQL (optional), so that the stack's own readiness check stays plain. */
    private String clientTlsYaml() {
        return settings.cassandraTlsKeystore().isEmpty() ? "" : """
                client_encryption_options:
                  enabled: true
                  optional: true
                  keystore: %s
                  keystore_password: "%s"
                  store_type: PKCS12
                """.formatted(settings.cassandraTlsKeystore(), settings.cassandraTlsKeystorePassword());
    }

    /** An eighth of the heap (512m: 64 MiB, 2g: 256 MiB). */
    private long memtableMiB() {
        String heap = settings.cassandraHeap().toLowerCase(Locale.ROOT);
        long mib = Long.parseLong(heap.substring(0, heap.length() - 1)) * (heap.endsWith("g") ? 1024 : 1);
        return Math.max(32, mib / 8);
    }

    private static String logbackXml(Path dir) {
        return """
                <configuration>
                  <appender name="FILE" class="ch.qos.logback.core.rolling.RollingFileAppender">
                    <file>%1$s/system.log</file>
                    <rollingPolicy class="ch.qos.logback.core.rolling.FixedWindowRollingPolicy">
                      <fileNamePattern>%1$s/system.log.%%i.zip</fileNamePattern>
                      <minIndex>1</minIndex>
                      <maxIndex>3</maxIndex>
                    </rollingPolicy>
                    <triggeringPolicy class="ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy">
                      <maxFileSize>20MB</maxFileSize>
                    </triggeringPolicy>
                    <encoder><pattern>%%-5level [%%thread] %%date{ISO8601} %%F:%%L - %%msg%%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="FILE"/></root>
                </configuration>
                """.formatted(dir.resolve("logs"));
    }

    /** Every node takes CQL, and with several nodes the driver sees all of them up (gossip has settled). */
    @Override
    public boolean ready() {
        for (int node = 1; node <= settings.cassandraNodes(); node++) {
            if (!Ports.open(host(node), settings.cassandraPort())) {
                return false;
            }
        }
        var config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(5))
                .build();
        var builder = CqlSession.builder()
                .withConfigLoader(config)
                .addContactPoint(new InetSocketAddress(host(1), settings.cassandraPort()))
                .withLocalDatacenter("datacenter1");
        if (settings.cassandraPasswordAuth()) {
            builder.withAuthCredentials(SUPERUSER, SUPERUSER);
        }
        try (var session = builder.build()) {
            session.execute("SELECT release_version FROM system.local");
            var nodes = session.getMetadata().getNodes().values();
            return nodes.size() == settings.cassandraNodes()
                    && nodes.stream().allMatch(n -> n.getState() == NodeState.UP);
        }
    }

    @Override
    public boolean failed() {
        return !launched.isEmpty() && launched.stream().anyMatch(p -> !p.isAlive()) && runningPids().size() < settings.cassandraNodes();
    }

    @Override
    public void stop() {
        // nodes stop together: a node shutting down alone tells its peers at once (SIGTERM, not a kill)
        var pids = runningPids();
        pids.parallelStream().forEach(pid -> Processes.stop(pid, "TERM", Duration.ofSeconds(60)));
        launched.clear();
    }

    /** The contact points for the driver. */
    List<String> contactPoints() {
        var points = new ArrayList<String>();
        for (int node = 1; node <= settings.cassandraNodes(); node++) {
            points.add(host(node) + ":" + settings.cassandraPort());
        }
        return points;
    }
}
