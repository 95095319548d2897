package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsAreFreeDistinctAndOutsideTheRangeOutgoingConnectionsTakeTheirs() throws IOException {
        int[] ephemeral = FreePorts.ephemeralRange();
        var seen = new HashSet<Integer>();
        for (int i = 0; i < 200; i++) {
            int port = FreePorts.next();
            assertThat(port < ephemeral[0] || port > ephemeral[1])
                    .as("%d outside the ephemeral range %d-%d", port, ephemeral[0], ephemeral[1]).isTrue();
            assertThat(seen.add(port)).as("handed out once: " + port).isTrue();
        }
        int port = FreePorts.next();
        try (var socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
