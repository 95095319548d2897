package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Elasticsearch 9 from Maven Central's integ-test-zip: a minimal distribution without a bundled JDK, so it runs
 * on a JDK 21+ found on the machine. Its configuration lives in our folder (ES_PATH_CONF), not in the unpacked
 * distribution; as root it runs as the stack's service user, since Elasticsearch refuses root.
 */
final class ElasticsearchNode implements LocalService {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final StackSettings settings;
    private final Path home;
    private Process launcher;

    ElasticsearchNode(StackSettings settings) {
        this.settings = settings;
        this.home = settings.dir().resolve("elasticsearch");
    }

    @Override
    public String name() {
        return "elasticsearch";
    }

    @Override
    public Path log() {
        return home.resolve("logs/profile-store-local.log");
    }

    @Override
    public List<Path> startLogs() {
        return List.of(launcherLog(), log());
    }

    private Path launcherLog() {
        return home.resolve("logs/launcher.log");
    }

    private Path pidFile() {
        return home.resolve("elasticsearch.pid");
    }

    @Override
    public List<Long> runningPids() {
        OptionalLong pid = Processes.readPidFile(pidFile());
        // a pid may have been reused since: the process is ours when its command line names our folder, which only
        // its temporary folder does (ES_TMPDIR below); the distribution's folder may be shared by several stacks
        // (PROFILE_STORE_STACK_DIST_DIR), and a stack stopped with another setting of it must still find its node
        return pid.isPresent() && Processes.isOurs(pid.getAsLong(), "-Djava.io.tmpdir=" + home.resolve("tmp") + " ")
                ? List.of(pid.getAsLong()) : List.of();
    }

    @Override
    public void launch() {
        Binaries.ensure(settings);
        var jdk = Jdks.forElasticsearch(settings);
        Path dist = Binaries.elasticsearchHome(settings);
        Path config = home.resolve("config");
        try {
            for (String sub : List.of("data", "logs", "tmp", "config/jvm.options.d")) {
                Files.createDirectories(home.resolve(sub));
            }
            try (Stream<Path> files = Files.list(dist.resolve("config"))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    Files.copy(file, config.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.writeString(config.resolve("elasticsearch.yml"), """
                    cluster.name: profile-store-local
                    node.name: local
                    discovery.type: single-node
                    xpack.security.enabled: false
                    network.host: 127.0.0.1
                    http.port: %d
                    transport.port: %d
                    path.data: %s
                    path.logs: %s
                    cluster.routing.allocation.disk.threshold_enabled: false
                    action.destructive_requires_name: false
                    """.formatted(settings.elasticsearchPort(), settings.elasticsearchTransportPort(),
                    home.resolve("data"), home.resolve("logs")));
            Files.writeString(config.resolve("jvm.options.d/heap.options"),
                    "-Xms" + settings.elasticsearchHeap() + "\n-Xmx" + settings.elasticsearchHeap() + "\n");
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + home, e);
        }
        // the distribution stays as unpacked (readable by all, shared by stacks); the node writes only under home
        SystemUser.handOver(settings, home);
        var command = new ArrayList<>(SystemUser.runAs(settings));
        command.addAll(List.of("env", "ES_JAVA_HOME=" + jdk.home(), "ES_PATH_CONF=" + config,
                "ES_TMPDIR=" + home.resolve("tmp"),
                dist.resolve("bin/elasticsearch").toString(), "-d", "-p", pidFile().toString()));
        // with -d the launcher returns once the node has started, leaving the node's pid in the pid file
        launcher = Processes.launch(command, Map.of(), launcherLog());
    }

    @Override
    public boolean ready() {
        try {
            var response = HTTP.send(HttpRequest.newBuilder(URI.create(url()
                                    + "/_cluster/health?wait_for_status=yellow&timeout=1s"))
                            .timeout(Duration.ofSeconds(5)).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            return response.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean failed() {
        return launcher != null && !launcher.isAlive() && (launcher.exitValue() != 0 || runningPids().isEmpty());
    }

    @Override
    public void stop() {
        runningPids().forEach(pid -> Processes.stop(pid, "TERM", Duration.ofSeconds(60)));
        launcher = null;
    }

    String url() {
        return "http://127.0.0.1:" + settings.elasticsearchPort();
    }
}
