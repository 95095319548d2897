package io.profilestore.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.TerminalFailureException;

/**
 * An API instance in a JVM of its own, configured through the environment like in production: for tests that
 * kill an instance mid-change or run instances whose clocks differ (under libfaketime).
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Process process;
    private final int port;
    private final int adminPort;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private Thread pump;
    private final Path log;

    private ServiceProcess(Process process, int port, int adminPort, Path log) {
        this.process = process;
        this.port = port;
        this.adminPort = adminPort;
        this.log = log;
    }

    /**
     * Starts an instance and waits until its health checks pass.
     *
     * @param clockOffset how far this instance's clock is from the real one (through libfaketime), or null
     * @param environment more variables, e.g. PROFILE_STORE_TEST_HOLD_AT
     */
    public static ServiceProcess start(String clockOffset, Map<String, String> environment) throws IOException {
        return start("server", clockOffset, environment);
    }

    /** @param appCommand the application's command: {@code server} or {@code indexer} */
    public static ServiceProcess start(String appCommand, String clockOffset, Map<String, String> environment) throws IOException {
        int port = FreePorts.next();
        int adminPort = FreePorts.next();
        var command = ChildClasspath.javaCommand(HoldingApplication.class.getName());
        command.addAll(List.of(appCommand, TestStack.configPath()));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        var env = builder.environment();
        env.putAll(TestStack.endpoints().environment());
        env.put("PROFILE_STORE_PORT", Integer.toString(port));
        env.put("PROFILE_STORE_ADMIN_PORT", Integer.toString(adminPort));
        env.put("PROFILE_STORE_BIND_HOST", "127.0.0.1");
        env.put("PROFILE_STORE_API_KEYS_FILE", TestAuth.keysFile().toString());
        env.put("PROFILE_STORE_NUMBER_KEYS", TestAuth.NUMBER_KEYS);
        env.putAll(TestStack.peopleUnlimitedEnvironment());
        if (clockOffset != null) {
            // every clock moves by the same offset; leaving the monotonic one alone (DONT_FAKE_MONOTONIC)
            // would break the JVM's timed waits, which then spin
            env.putAll(Faketime.environment(clockOffset));
        }
        env.putAll(environment);
        // beside the test reports: the log scan after the tests reads them too
        Path logs = Path.of(System.getProperty("profileStore.projectDir", "."), "target", "instance-logs");
        Files.createDirectories(logs);
        Path log = Files.createTempFile(logs, "instance-", ".log");
        var instance = new ServiceProcess(builder.start(), port, adminPort, log);
        instance.pumpOutput();
        try {
            instance.awaitHealthy();
        } catch (RuntimeException | Error e) {
            instance.process.destroyForcibly();
            throw e;
        }
        return instance;
    }

    public int port() {
        return port;
    }

    public Api api() {
        return new Api(port);
    }

    /** A GET on the admin port. */
    public Api.Reply admin(String path) {
        return new Api(adminPort).send("GET", path, null, null, Map.of());
    }

    /** The admin port, for calls of one's own (a token, another method). */
    public Api adminApi() {
        return new Api(adminPort);
    }

    /** Waits for a line the instance printed that starts with the prefix. */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the instance printed no '" + prefix + "' line within " + timeout + "; log: " + log);
    }

    /** Kills the instance without warning, as a crash would. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    private void awaitHealthy() {
        try {
            Awaitility.await("instance on port " + port + " to be healthy (log: " + log + ")")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions()
                    .failFast("the instance exited; see " + log, () -> !process.isAlive())
                    .until(() -> HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/healthcheck"))
                            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        } catch (TerminalFailureException e) {
            try {
                pump.join(5_000); // the last lines (the reason it died) are still on their way to the file
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            // CI keeps the build's output, not its target folder: the reason goes into the failure itself
            throw new IllegalStateException("the instance exited (exit " + process.exitValue() + "); the end of " + log
                    + ":\n" + LogTail.of(log, 30), e);
        }
    }

    private void pumpOutput() {
        var reader = new Thread(() -> {
            try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                    var out = Files.newBufferedWriter(log)) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    lines.add(line);
                    out.write(line);
                    out.newLine();
                    out.flush();
                }
            } catch (IOException ignored) {
                // the process is gone
            }
        }, "instance-" + port + "-output");
        reader.setDaemon(true);
        reader.start();
        pump = reader;
    }

}
