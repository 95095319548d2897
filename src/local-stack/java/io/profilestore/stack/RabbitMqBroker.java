package io.profilestore.stack;

import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RabbitMQ from the operating system's packages (Debian's rabbitmq-server; installed when missing and we are
 * root), run as a node of its own: its own node name, ports, configuration, data and Erlang cookie under the
 * stack folder, so it neither needs nor disturbs a RabbitMQ the machine may already run.
 */
final class RabbitMqBroker implements LocalService {

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqBroker.class);

    private final StackSettings settings;
    private final Path home;
    private Process launched;

    RabbitMqBroker(StackSettings settings) {
        this.settings = settings;
        this.home = settings.dir().resolve("rabbitmq");
    }

    @Override
    public String name() {
        return "rabbitmq";
    }

    @Override
    public Path log() {
        return home.resolve("stdout.log");
    }

    private Path pidFile() {
        return home.resolve("rabbitmq.pid");
    }

    @Override
    public List<Long> runningPids() {
        OptionalLong pid = Processes.readPidFile(pidFile());
        return pid.isPresent() && Processes.isOurs(pid.getAsLong(), "-home " + home.resolve("home"))
                ? List.of(pid.getAsLong()) : List.of();
    }

    @Override
    public void launch() {
        Path server = serverScript();
        try {
            for (String sub : List.of("mnesia", "log", "home")) {
                Files.createDirectories(home.resolve(sub));
            }
            Files.writeString(home.resolve("rabbitmq.conf"), """
                    listeners.tcp.default = 127.0.0.1:%d
                    # guest may connect from loopback only, which is where our clients are
                    loopback_users.guest = true
                    disk_free_limit.absolute = 50MB
                    """.formatted(settings.rabbitmqPort()));
            Files.writeString(home.resolve("enabled_plugins"), "[].\n");
            Files.writeString(home.resolve("rabbitmq-env.conf"), "");
            Files.deleteIfExists(pidFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + home, e);
        }
        var environment = Map.ofEntries(
                Map.entry("HOME", home.resolve("home").toString()),
                Map.entry("RABBITMQ_NODENAME", nodeName()),
                Map.entry("RABBITMQ_DIST_PORT", Integer.toString(settings.rabbitmqDistPort())),
                // an Erlang port mapper of the stack's own, stopped with the node: the machine's (4369) is left
                // alone, and nothing of ours outlives the stack
                Map.entry("ERL_EPMD_PORT", Integer.toString(settings.rabbitmqEpmdPort())),
                Map.entry("RABBITMQ_CONFIG_FILE", home.resolve("rabbitmq.conf").toString()),
                Map.entry("RABBITMQ_ADVANCED_CONFIG_FILE", home.resolve("advanced.config").toString()),
                Map.entry("RABBITMQ_CONF_ENV_FILE", home.resolve("rabbitmq-env.conf").toString()),
                Map.entry("RABBITMQ_ENABLED_PLUGINS_FILE", home.resolve("enabled_plugins").toString()),
                Map.entry("RABBITMQ_MNESIA_BASE", home.resolve("mnesia").toString()),
                Map.entry("RABBITMQ_LOG_BASE", home.resolve("log").toString()),
                Map.entry("RABBITMQ_PID_FILE", pidFile().toString()));
        launched = Processes.launch(List.of(server.toString()), environment, log());
    }

    @Override
    public boolean ready() {
        var factory = new ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setPort(settings.rabbitmqPort());
        factory.setConnectionTimeout(2000);
        factory.setAutomaticRecoveryEnabled(false);
        try (var connection = factory.newConnection("profile-store-stack-probe")) {
            return connection.isOpen();
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public boolean failed() {
        return launched != null && !launched.isAlive() && runningPids().isEmpty();
    }

    @Override
    public void stop() {
        runningPids().forEach(pid -> Processes.stop(pid, "TERM", Duration.ofSeconds(60)));
        launched = null;
        stopPortMapper();
    }

    /**
     * Stops the stack's own Erlang port mapper. epmd refuses (and still exits 0) while a node is registered with
     * it, so success is told by its port closing.
     */
    private void stopPortMapper() {
        int port = settings.rabbitmqEpmdPort();
        if (!Ports.open("127.0.0.1", port)) {
            return;
        }
        try {
            Processes.run(Duration.ofSeconds(10), "env", "ERL_EPMD_PORT=" + port, "epmd", "-kill");
            Awaitility.await("RabbitMQ's port mapper on port " + port + " to stop")
                    .atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> !Ports.open("127.0.0.1", port));
        } catch (IllegalStateException | UncheckedIOException | ConditionTimeoutException e) {
            LOG.warn("RabbitMQ's port mapper (epmd) on port {} did not stop: {}", port, e.getMessage());
        }
    }

    /**
     * Runs rabbitmqctl against the stack's node (its name, its port mapper, the cookie in its HOME): users and
     * permissions, which AMQP cannot manage. Returns what it printed; fails on a non-zero exit.
     */
    String ctl(Duration timeout, String... arguments) {
        var command = new ArrayList<>(List.of("env",
                "HOME=" + home.resolve("home"),
                "RABBITMQ_NODENAME=" + nodeName(),
                "ERL_EPMD_PORT=" + settings.rabbitmqEpmdPort(),
                serverScript().resolveSibling("rabbitmqctl").toString(),
                "-n", nodeName()));
        command.addAll(List.of(arguments));
        return Processes.run(timeout, command.toArray(String[]::new));
    }

    private String nodeName() {
        return "profilestore" + settings.rabbitmqPort() + "@localhost";
    }

    String uri() {
        return "amqp://guest:guest@127.0.0.1:" + settings.rabbitmqPort() + "/%2F";
    }

    /**
     * The real start script, not Debian's /usr/sbin wrapper (which would switch to the rabbitmq user and its
     * system-wide folders). PROFILE_STORE_RABBITMQ_SERVER names another one (Homebrew's, say).
     */
    private Path serverScript() {
        String explicit = settings.lookup().apply("PROFILE_STORE_RABBITMQ_SERVER");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        return installed().or(() -> {
            Packages.install("RabbitMQ", "rabbitmq-server");
            return installed();
        }).orElseThrow(() -> new IllegalStateException("rabbitmq-server was installed but "
                + "/usr/lib/rabbitmq/bin/rabbitmq-server is missing; set PROFILE_STORE_RABBITMQ_SERVER"));
    }

    static Optional<Path> installed() {
        for (String candidate : List.of("/usr/lib/rabbitmq/bin/rabbitmq-server", "/opt/homebrew/sbin/rabbitmq-server",
                "/usr/local/sbin/rabbitmq-server")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Optional.of(Path.of(candidate));
            }
        }
        return Optional.empty();
    }
}
