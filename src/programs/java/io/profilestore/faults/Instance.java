package io.profilestore.faults;

import io.profilestore.ProfileStoreApplication;
import io.profilestore.testing.ChildClasspath;
import io.profilestore.testing.LogTail;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * One process of the service (an API instance or the indexer) as production runs it: a JVM of its own, configured
 * by its environment, that the suite kills, freezes and starts again.
 */
final class Instance {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * How long a start may take before it counts as hung. A JVM started amid the workload shares two cores with
     * three Cassandra nodes, Elasticsearch and the other processes at full tilt: with a load average of 18, its main
     * thread got 1.9 s of CPU in its first 50 s (jstack), and a restarted API took 3.5 minutes here and more than 4
     * in CI. A production pod starts on CPU of its own; here the start is given it with a higher priority
     * ({@link #BOOST}) until the instance is healthy, then the instance runs at the others' priority again.
     */
    static final Duration START_WITHIN = Duration.ofMinutes(4);

    /** The niceness a starting instance runs at, as root (which alone may lower it); 0 once it is healthy. */
    static final int BOOST = -10;

    private final String name;
    private final String command;
    private final Map<String, String> environment;
    private final int port;
    private final int adminPort;
    private final Path log;
    private Process process;
    private volatile boolean frozen;

    Instance(String name, String command, Map<String, String> environment, int port, int adminPort, Path log) {
        this.name = name;
        this.command = command;
        this.environment = environment;
        this.port = port;
        this.adminPort = adminPort;
        this.log = log;
    }

    String name() {
        return name;
    }

    /** The process, while it runs. */
    synchronized long pid() {
        if (process == null || !process.isAlive()) {
            throw new IllegalStateException(name + " does not run");
        }
        return process.pid();
    }

    URI base() {
        return URI.create("http://127.0.0.1:" + port);
    }

    URI admin() {
        return URI.create("http://127.0.0.1:" + adminPort);
    }

    synchronized void start() throws IOException {
        var java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        boolean boost = "root".equals(System.getProperty("user.name"));
        var line = new ArrayList<String>(boost ? List.of("nice", "-n", Integer.toString(BOOST)) : List.of());
        line.addAll(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", ChildClasspath.current(),
                ProfileStoreApplication.class.getName(), command, "profile-store.yml"));
        var builder = new ProcessBuilder(line).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        builder.environment().put("PROFILE_STORE_PORT", Integer.toString(port));
        builder.environment().put("PROFILE_STORE_ADMIN_PORT", Integer.toString(adminPort));
        builder.environment().put("PROFILE_STORE_BIND_HOST", "127.0.0.1");
        Files.createDirectories(log.getParent());
        process = builder.start();
        awaitHealthy(START_WITHIN);
        if (boost) {
            runAtUsualPriority(process.pid());
        }
    }

    /**
     * Every thread of the process back to niceness 0 (Linux keeps a niceness per thread, and a thread takes its
     * creator's): twice, for the threads begun while the first pass ran.
     */
    private static void runAtUsualPriority(long pid) throws IOException {
        for (int pass = 0; pass < 2; pass++) {
            var threads = new ArrayList<>(List.of("renice", "-n", "0", "-p"));
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                tasks.forEach(task -> threads.add(task.getFileName().toString()));
            }
            try {
                var renice = new ProcessBuilder(threads).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (!renice.waitFor(30, TimeUnit.SECONDS)) {
                    renice.destroyForcibly();
                    throw new IOException("renice of " + pid + " did not end in 30 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while renicing " + pid, e);
            }
        }
    }

    /** Waits until the health checks pass (every backing service answers), or fails saying so. */
    void awaitHealthy(Duration within) {
        try {
            Awaitility.await(name + " to be healthy").atMost(within).pollInterval(Duration.ofMillis(250))
                    .failFast(name + " exited; see " + log, () -> process == null || !process.isAlive())
                    .until(() -> healthy());
        } catch (TerminalFailureException e) {
            // CI keeps the build's output, not its target folder: the reason goes into the failure itself
            throw new IllegalStateException(name + " exited (" + (process == null ? "never started" : "exit "
                    + process.exitValue()) + "); the end of " + log + ":\n" + LogTail.of(log, 30), e);
        } catch (ConditionTimeoutException e) {
            // the same type (the suite reports a heal that timed out), with what the process was doing
            throw new ConditionTimeoutException(e.getMessage() + "; the end of " + log + ":\n"
                    + LogTail.of(log, 30), e);
        }
    }

    boolean healthy() {
        try {
            // a busy machine answers health checks slowly (seconds): slow is not unhealthy
            var reply = HTTP.send(HttpRequest.newBuilder(admin().resolve("/healthcheck")).timeout(Duration.ofSeconds(15))
                    .GET().build(), HttpResponse.BodyHandlers.discarding());
            return reply.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A crash: kill -9, nothing gets to clean up. */
    synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** A pause (GC, a stalled VM): SIGSTOP, and SIGCONT to go on where it stopped. */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
        frozen = true;
    }

    void thaw() throws IOException, InterruptedException {
        signal("CONT");
        frozen = false;
    }

    private void signal(String signal) throws IOException, InterruptedException {
        var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
        }
    }

    /** Stops it the polite way (SIGTERM: Dropwizard stops gracefully). */
    synchronized void stop() throws InterruptedException {
        if (frozen) {
            try {
                thaw(); // a stopped process would not hear SIGTERM
            } catch (IOException | RuntimeException e) {
                process.destroyForcibly();
            }
        }
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
