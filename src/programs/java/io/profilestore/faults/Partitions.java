package io.profilestore.faults;

import io.profilestore.stack.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Network partitions between processes on one machine, with nftables: a table of the run's own, whose rules drop
 * packets (no reset: a peer sees silence, as across a failed switch). Every process here talks over loopback, and a
 * process's outgoing connections all leave from 127.0.0.1 whatever address it listens on (Cassandra's nodes do), so
 * a cut is told by the process, not by the address: the process is moved into a cgroup of its own, and the rules
 * match its sockets' cgroup ({@code socket cgroupv2}). Dropping the table heals every cut; the process goes back to
 * the root cgroup. Needs root, cgroup v2 (alone, or beside v1 under {@code /sys/fs/cgroup/unified}) and Debian's
 * {@code nftables} (the suite installs it before a run that partitions: {@code Prerequisites.prepareForFaultSuite}).
 */
final class Partitions implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Path CGROUPS = Path.of("/sys/fs/cgroup");

    private final String table;
    private boolean exists;
    private final List<Long> moved = new ArrayList<>();

    /** @param name the table's and cgroup's name: the run's own, so that two runs on a machine do not heal each other */
    Partitions(String name) {
        this.table = name;
    }

    /**
     * Cuts a process off from everything else: what it sends is dropped, and what is sent to the address it listens
     * on ({@code address}) from any other.
     */
    synchronized void isolate(long pid, String address) {
        var group = group(pid);
        rule("out", "socket cgroupv2 level 1 \"" + group + "\" drop");
        rule("out", "ip daddr " + address + " ip saddr != " + address + " drop");
        rule("in", "ip daddr " + address + " ip saddr != " + address + " drop");
    }

    /** Cuts a process off from these local ports: what it sends them is dropped, so nothing on its connections to them gets through. */
    synchronized void cutFromPorts(long pid, List<Integer> ports) {
        var group = group(pid);
        String set = ports.stream().map(String::valueOf).collect(Collectors.joining(", "));
        rule("out", "socket cgroupv2 level 1 \"" + group + "\" tcp dport { " + set + " } drop");
    }

    /** Heals every cut. */
    synchronized void heal() {
        if (exists) {
            nft("delete", "table", "inet", table);
            exists = false;
        }
        var root = v2Root();
        for (var pid : moved) {
            try {
                Files.writeString(root.resolve("cgroup.procs"), Long.toString(pid));
            } catch (IOException e) {
                // the process ended meanwhile: nothing to move back
            }
        }
        moved.clear();
        try {
            if (!root.equals(CGROUPS)) {
                Files.deleteIfExists(CGROUPS.resolve(table));
            }
            Files.deleteIfExists(root.resolve(table));
        } catch (IOException e) {
            throw new IllegalStateException("could not remove the cgroup " + table + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        heal();
    }

    /** The run's cgroup, made on first use, with the process in it; its name as nft's rules give it. */
    private String group(long pid) {
        var root = v2Root();
        try {
            Files.createDirectories(root.resolve(table));
            if (!root.equals(CGROUPS) && !Files.exists(CGROUPS.resolve(table), LinkOption.NOFOLLOW_LINKS)) {
                // nft finds a cgroup by its path under /sys/fs/cgroup: beside v1, v2's is a link away
                Files.createSymbolicLink(CGROUPS.resolve(table), CGROUPS.relativize(root.resolve(table)));
            }
            Files.writeString(root.resolve(table).resolve("cgroup.procs"), Long.toString(pid));
        } catch (IOException e) {
            throw new IllegalStateException("could not put process " + pid + " into a cgroup of its own: " + e.getMessage(), e);
        }
        moved.add(pid);
        return table;
    }

    /** Where cgroup v2 is mounted: /sys/fs/cgroup itself, or its unified/ beside v1. */
    private static Path v2Root() {
        return Files.exists(CGROUPS.resolve("cgroup.controllers")) ? CGROUPS : CGROUPS.resolve("unified");
    }

    private void rule(String chain, String rule) {
        if (!exists) {
            nft("add", "table", "inet", table);
            // before anything else of the machine's, on the way out and in
            nft("add", "chain", "inet", table, "out", "{ type filter hook output priority -300 ; }");
            nft("add", "chain", "inet", table, "in", "{ type filter hook input priority -300 ; }");
            exists = true;
        }
        var words = new ArrayList<>(List.of("add", "rule", "inet", table, chain));
        words.add(rule);
        nft(words.toArray(String[]::new));
    }

    private static void nft(String... words) {
        // found where Debian puts it, which is on root's PATH but not always on a JVM's started by sudo
        var command = new ArrayList<>(List.of(Prerequisites.nftOnThisMachine().map(Path::toString).orElse("nft")));
        command.addAll(List.of(words));
        try {
            var process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within " + TIMEOUT);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (" + process.exitValue() + "): " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("nft could not run (Debian's nftables, as root; ./faults/run installs it "
                    + "before a run that partitions): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running nft", e);
        }
    }
}
