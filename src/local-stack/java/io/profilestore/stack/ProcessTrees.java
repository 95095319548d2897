package io.profilestore.stack;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Signals to a service's processes and every process under them: PostgreSQL serves each connection, and does its
 * own work (the WAL writer, the checkpointer), in child processes, so freezing or crashing it means the whole tree.
 */
final class ProcessTrees {

    private ProcessTrees() {
    }

    /**
     * {@code kill -SIGNAL} of the processes and every process under them, each parent before its children. A process
     * that ended between the listing and the signal (RabbitMQ's short-lived helpers do) makes kill(1) exit 1 after it
     * signalled the others: that is no failure, only a process still alive that kill could not signal is.
     */
    static void signal(String signal, List<Long> pids) {
        var tree = withDescendants(pids);
        try {
            Processes.run(Duration.ofSeconds(10), kill(signal, tree));
        } catch (IllegalStateException e) {
            var alive = tree.stream().filter(Processes::isAlive).toList();
            if (!alive.isEmpty()) {
                Processes.run(Duration.ofSeconds(10), kill(signal, alive)); // fails if any of them cannot be signalled
            }
        }
    }

    /**
     * A crash: every process of the tree frozen (SIGSTOP), then every one killed (SIGKILL), then gone. Frozen first,
     * so that all stop at one moment: PostgreSQL's children outlive a killed postmaster until they notice, and would
     * go on working meanwhile (a backend finishing its commit, the WAL writer writing WAL out); and a frozen parent
     * starts no new child.
     */
    static void crash(List<Long> pids, Duration gone) {
        try {
            Processes.run(Duration.ofSeconds(10), kill("STOP", withDescendants(pids)));
        } catch (IllegalStateException e) {
            // a child that ended between the listing and the signal: kill(1) signalled the others all the same
        }
        var tree = withDescendants(pids); // listed again, every one of them frozen now
        tree.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        try {
            Awaitility.await("processes " + tree + " to be gone after kill -9").atMost(gone)
                    .pollInterval(Duration.ofMillis(50)).until(() -> tree.stream().noneMatch(Processes::isAlive));
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("still running " + gone + " after kill -9: "
                    + tree.stream().filter(Processes::isAlive).toList(), e);
        }
    }

    private static List<Long> withDescendants(List<Long> pids) {
        var tree = new ArrayList<Long>();
        for (long pid : pids) {
            tree.add(pid);
            ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(child -> tree.add(child.pid())));
        }
        return tree;
    }

    private static String[] kill(String signal, List<Long> pids) {
        var command = new ArrayList<String>(List.of("kill", "-" + signal));
        pids.forEach(pid -> command.add(Long.toString(pid)));
        return command.toArray(String[]::new);
    }
}
