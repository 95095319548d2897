package io.profilestore.testing;

import io.profilestore.ProfileStoreApplication;
import io.profilestore.cli.CommandActor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the application's commands ({@code audit}, {@code migrate}, ...) run as production runs it, in a JVM of
 * its own with the test classpath and the stack's addresses in its environment: Dropwizard's Cli calls
 * System.exit when a command fails, which in the test JVM would end the whole run instead of failing one test.
 */
public final class ApplicationCommand {

    /** How the command ended: its exit code and everything it printed (stdout and stderr). */
    public record Result(int exitCode, String output) {
    }

    private ApplicationCommand() {
    }

    /** A command started and not yet ended: its process, and the file its output goes to. */
    public record Started(Process process, Path log) {

        /** Waits for it to end, bounded; fails with what it printed when it does not. */
        public Result await(Duration timeout, String name) throws IOException, InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(30, TimeUnit.SECONDS);
                throw new AssertionError("the " + name + " command did not end within " + timeout + "; output:\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    public static Result run(Duration timeout, String... arguments) throws IOException, InterruptedException {
        return start(arguments).await(timeout, arguments[0]);
    }

    /**
     * The command as a newcomer or a pod runs it, with nothing of the test stack: no variable in its environment
     * beyond the basics, so that the configuration's defaults are what it gets.
     */
    public static Result runBare(Duration timeout, String... arguments) throws IOException, InterruptedException {
        return runBare(Map.of(), timeout, arguments);
    }

    /** The same, with these variables too. */
    public static Result runBare(Map<String, String> environment, Duration timeout, String... arguments)
            throws IOException, InterruptedException {
        var command = ChildClasspath.javaCommand(ProfileStoreApplication.class.getName());
        command.addAll(List.of(arguments));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().retainAll(List.of("PATH", "HOME", "LANG"));
        builder.environment().putAll(environment);
        var process = builder.start();
        var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the " + arguments[0] + " command did not end within " + timeout + ":\n" + output);
        }
        return new Result(process.exitValue(), output);
    }

    /** Starts the command and returns at once: for a test that kills it on the way. */
    public static Started start(String... arguments) throws IOException {
        return start(Map.of(), arguments);
    }

    /** The same, with more in its environment. */
    public static Started start(Map<String, String> environment, String... arguments) throws IOException {
        var command = ChildClasspath.javaCommand(ProfileStoreApplication.class.getName());
        command.addAll(List.of(arguments));
        var builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(TestStack.endpoints().environment());
        builder.environment().put("PROFILE_STORE_API_KEYS_FILE", TestAuth.keysFile().toString());
        builder.environment().put("PROFILE_STORE_NUMBER_KEYS", TestAuth.NUMBER_KEYS);
        // who runs audit and import, as the trail records them: an admin's key, unless a test gives another
        builder.environment().put(CommandActor.TOKEN, TestAuth.ADMIN);
        builder.environment().putAll(environment);
        // beside the instances' logs: the log scan after the tests reads them too
        Path logs = Path.of(System.getProperty("profileStore.projectDir", "."), "target", "instance-logs");
        Files.createDirectories(logs);
        Path log = Files.createTempFile(logs, "command-" + arguments[0] + "-", ".log");
        builder.redirectOutput(log.toFile());
        return new Started(builder.start(), log);
    }
}
