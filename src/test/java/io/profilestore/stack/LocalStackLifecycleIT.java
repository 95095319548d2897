package io.profilestore.stack;

import io.profilestore.testing.FreePorts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.profilestore.testing.ChildClasspath;
import io.profilestore.testing.TestStack;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The local stack's life cycle across processes, on a PostgreSQL of its own (the quickest service to start) in a
 * folder and on a port of its own: a second run joins instead of starting a second server, a killed run's server
 * is reused, and the last run to leave stops it.
 */
@EnabledIf("io.profilestore.stack.LocalStackLifecycleIT#localMode")
class LocalStackLifecycleIT {

    private static final Pattern READY = Pattern.compile("READY POSTGRES=(STARTED|REUSED):\\[(\\d+)]");

    static boolean localMode() {
        return TestStack.stack().mode() == StackMode.LOCAL;
    }

    private Path dir;
    private int port;
    private final List<Run> runs = new ArrayList<>();

    @BeforeEach
    void folderAndPort() throws IOException {
        // not a JUnit @TempDir: that one is private to us, and as root the server runs as another user
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-stack-test-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        port = FreePorts.next();
    }

    @AfterEach
    void stopEverything() {
        runs.forEach(run -> run.process.destroyForcibly());
        LocalStack.stopLeftovers(settings());
        Processes.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
    }

    @Test
    void aSecondRunJoinsAKilledRunsServerIsReusedAndTheLastRunStopsIt() throws Exception {
        var first = start();
        var firstReady = first.awaitReady();
        assertThat(firstReady.origin()).isEqualTo("STARTED");
        long pid = firstReady.pid();
        assertThat(answers()).isTrue();

        var second = start();
        var secondReady = second.awaitReady();
        assertThat(secondReady.origin()).as("a second start joins the running server").isEqualTo("REUSED");
        assertThat(secondReady.pid()).isEqualTo(pid);

        assertThat(second.leave()).as("the first run still uses the stack").isEqualTo("LEFT running");
        assertThat(Processes.isAlive(pid)).isTrue();

        first.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(Processes.isAlive(pid)).as("a killed run leaves its server behind").isTrue();

        var third = start();
        var thirdReady = third.awaitReady();
        assertThat(thirdReady.origin()).as("the left-over server is reused, not doubled").isEqualTo("REUSED");
        assertThat(thirdReady.pid()).isEqualTo(pid);

        assertThat(third.leave()).as("the last run to leave stops the stack").isEqualTo("LEFT stopped");
        await("PostgreSQL " + pid + " to exit").atMost(Duration.ofSeconds(30)).until(() -> !Processes.isAlive(pid));
        assertThat(answers()).isFalse();
    }

    @Test
    void leftoversAreStoppedOnRequestOnlyWhenNoRunUsesThem() throws Exception {
        var run = start();
        long pid = run.awaitReady().pid();

        assertThat(LocalStack.stopLeftovers(settings())).as("a live run still uses it").isFalse();
        assertThat(Processes.isAlive(pid)).isTrue();

        run.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        assertThat(LocalStack.stopLeftovers(settings())).isTrue();
        await("PostgreSQL " + pid + " to exit").atMost(Duration.ofSeconds(30)).until(() -> !Processes.isAlive(pid));
    }

    private StackSettings settings() {
        return StackSettings.from(Map.of(
                "PROFILE_STORE_STACK_DIR", dir.toString(),
                "PROFILE_STORE_POSTGRES_PORT", Integer.toString(port)));
    }

    private boolean answers() {
        try (var connection = DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + port + "/profilestore?connectTimeout=2", "profilestore", "")) {
            return connection.isValid(2);
        } catch (Exception e) {
            return false;
        }
    }

    private Run start() throws IOException {
        var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", ChildClasspath.current(), StackCli.class.getName(), "postgres")
                .redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve("cli-stderr.log").toFile()));
        builder.environment().put("PROFILE_STORE_STACK_DIR", dir.toString());
        builder.environment().put("PROFILE_STORE_POSTGRES_PORT", Integer.toString(port));
        var run = new Run(builder.start());
        runs.add(run);
        return run;
    }

    private record Ready(String origin, long pid) {
    }

    /** A StackCli process and the lines it prints. */
    private static final class Run {
        final Process process;
        final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Run(Process process) {
            this.process = process;
            var reader = new Thread(() -> {
                try (var in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException ignored) {
                    // the process is gone
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        Ready awaitReady() throws InterruptedException {
            String line = next("READY");
            var matcher = READY.matcher(line);
            assertThat(matcher.find()).as(line).isTrue();
            return new Ready(matcher.group(1), Long.parseLong(matcher.group(2)));
        }

        String leave() throws Exception {
            process.getOutputStream().close();
            return next("LEFT");
        }

        private String next(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < deadline) {
                String line = lines.poll(1, TimeUnit.SECONDS);
                if (line != null && line.startsWith(prefix)) {
                    return line;
                }
                if (line == null && !process.isAlive() && lines.isEmpty()) {
                    throw new AssertionError("the stack process exited (" + process.exitValue() + ") before " + prefix);
                }
            }
            throw new AssertionError("no " + prefix + " line within 120 s");
        }
    }
}
