package io.profilestore.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starting, finding and stopping the processes of the local stack. Linux only, as the local mode is. */
final class Processes {

    private static final Logger LOG = LoggerFactory.getLogger(Processes.class);

    private Processes() {
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * Starts a command in a session of its own ({@code setsid}), so that Ctrl-C in the terminal reaches only the
     * JVM, which then stops the services in order; output goes to a log file, never to a pipe that dies with us.
     */
    static Process launch(List<String> command, Map<String, String> environment, Path log) {
        var full = new ArrayList<String>();
        full.add("setsid");
        full.addAll(command);
        var builder = new ProcessBuilder(full)
                .directory(log.getParent().toFile()) // crash dumps land beside the log, not in the repository
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(environment);
        try {
            Files.createDirectories(log.getParent());
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    /** Runs a command to its end; fails with its output when it does not exit 0. */
    static String run(Duration timeout, String... command) {
        try {
            var process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            var output = new StringBuilder();
            var reader = new Thread(() -> {
                try {
                    output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException ignored) {
                    // the process is gone; what was read is enough
                }
            }, "output of " + command[0]);
            reader.setDaemon(true);
            reader.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeout);
            }
            reader.join();
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + process.exitValue()
                        + "):\n" + output);
            }
            return output.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command[0], e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command[0], e);
        }
    }

    /** The pid in the first line of a pid file, when the file exists. */
    static OptionalLong readPidFile(Path file) {
        try {
            if (!Files.isRegularFile(file)) {
                return OptionalLong.empty();
            }
            var lines = Files.readAllLines(file);
            return lines.isEmpty() || !lines.get(0).trim().matches("\\d+") ? OptionalLong.empty()
                    : OptionalLong.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    static void writePidFile(Path file, long pid) {
        try {
            Files.writeString(file, pid + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Whether the pid is alive and its command line mentions the marker (a path of this stack): a pid file left
     * behind after a reboot may name a process that has nothing to do with us.
     */
    static boolean isOurs(long pid, String marker) {
        return commandLine(pid).map(line -> line.contains(marker)).orElse(false);
    }

    static Optional<String> commandLine(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid), "cmdline");
        try {
            if (Files.exists(proc)) {
                var bytes = Files.readAllBytes(proc);
                return bytes.length == 0 ? Optional.empty()
                        : Optional.of(new String(bytes, StandardCharsets.UTF_8).replace('\0', ' '));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).flatMap(h -> h.info().commandLine());
    }

    static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /**
     * Sends the signal, waits up to the grace period for the process to exit, then kills it. Returns whether it
     * had to be killed.
     */
    static boolean stop(long pid, String signal, Duration grace) {
        if (!isAlive(pid)) {
            return false;
        }
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        var handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return false;
        }
        try {
            handle.get().onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return false;
        } catch (Exception timedOut) {
            LOG.warn("process {} did not stop within {} after SIGTERM/INT; killing it", pid, grace);
            handle.get().destroyForcibly();
            return true;
        }
    }
}
