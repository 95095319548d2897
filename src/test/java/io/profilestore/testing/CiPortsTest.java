package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * CI's own stacks listen on fixed ports (.ci/run), and a test stops and starts their services. While a service is
 * down, its clients keep connecting to its port, each time from a port of the kernel's ephemeral range: when the
 * service's own port lies in that range, a client's connection may take it as its local port (or connect to itself,
 * nothing listening), and the service, started again, cannot bind it. CI failed so: "Failed to bind port 39042"
 * as ChangeOutcomeAuditIT brought Cassandra back. So no port of CI's, nor its second fork's (plus 10), may lie in the
 * ephemeral range, nor in the band {@link FreePorts} hands out.
 */
class CiPortsTest {

    static final Path CI = Path.of(System.getProperty("profileStore.projectDir", ".")).resolve(".ci/run");
    static final Pattern EXPORTED_PORT = Pattern.compile("PROFILE_STORE_\\w*PORT=(\\d+)");

    @Test
    void everyPortOfCisStacksLiesBelowTheEphemeralRangeAndOutsideTheTestsBand() throws IOException {
        var ports = new ArrayList<Integer>();
        var matcher = EXPORTED_PORT.matcher(Files.readString(CI));
        while (matcher.find()) {
            int port = Integer.parseInt(matcher.group(1));
            ports.addAll(List.of(port, port + 10));
        }

        assertThat(ports).as("the ports .ci/run exports, and its second fork's").hasSizeGreaterThanOrEqualTo(20)
                .allSatisfy(port -> assertThat(port).isLessThan(FreePorts.ephemeralRange()[0])
                        .matches(p -> p < FreePorts.LOW || p > FreePorts.HIGH, "outside FreePorts' band"))
                .doesNotHaveDuplicates();
    }
}
