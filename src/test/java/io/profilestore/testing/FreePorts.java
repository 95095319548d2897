package io.profilestore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the processes and stacks a test starts, free now and likely to stay free until they bind.
 *
 * <p>A port from {@code new ServerSocket(0)} comes from the kernel's ephemeral range, the range every outgoing
 * connection takes its local port from: between the pick and the bind (a schema migration and two API starts, half
 * a minute in the fault suite, and again after each restart) a driver's connection may take it, and the process
 * that should bind it exits. CI once saw the fault suite's indexer exit so. These ports come from below that range,
 * from a band no fixed port of the local stacks uses, and no port is handed out twice in one JVM, nor by two forks
 * of the integration tests (each takes its own share of the band).
 */
public final class FreePorts {

    /** Below the ephemeral range (Linux starts it at 32768) and clear of the stacks' fixed ports (15432 … 19300, 24369 …). */
    static final int LOW = 20_000;
    static final int HIGH = 24_000;

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    public static synchronized int next() {
        var random = ThreadLocalRandom.current();
        // a machine whose ephemeral range starts lower leaves no band that is safe: the band below it, at least 1,000
        int top = Math.min(HIGH, ephemeralRange()[0]);
        int bottom = Math.min(LOW, top - 1_000);
        if (bottom < 1_024) {
            throw new IllegalStateException("the kernel's ephemeral port range starts at " + top
                    + ": no ports below it for the tests (sysctl net.ipv4.ip_local_port_range)");
        }
        // each fork of the integration tests (ForkedStacks) its own share of the band: no port goes to two JVMs
        int share = (top - bottom) / ForkedStacks.forks();
        int low = bottom + share * (ForkedStacks.fork() - 1);
        int high = low + share;
        for (int attempt = 0; attempt < 500; attempt++) {
            int port = random.nextInt(low, high);
            if (!HANDED_OUT.contains(port) && bindable(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + low + "-" + high + " after 500 tries");
    }

    private static boolean bindable(int port) {
        try (var socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port)); // every address: the services bind 127.0.0.x or all of them
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The kernel's range of local ports for outgoing connections. */
    static int[] ephemeralRange() {
        try {
            // read as a stream: Files.readString trusts the size /proc gives (0) and returns one byte
            try (var in = Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
                var bounds = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
                return new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1])};
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
