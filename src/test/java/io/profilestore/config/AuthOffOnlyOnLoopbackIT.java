package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service with authentication off, as {@code ./run-local} runs it: it will not listen on all interfaces, and
 * on 127.0.0.1 it starts and answers there only.
 */
class AuthOffOnlyOnLoopbackIT {

    @Test
    void authenticationOffOnAllInterfacesDoesNotStart() {
        var service = service("0.0.0.0");
        try {
            assertThatThrownBy(service::before)
                    .hasMessageContaining("server.applicationConnectors[0] listens on 0.0.0.0")
                    .hasMessageContaining("server.adminConnectors[0] listens on 0.0.0.0")
                    .hasMessageContaining("PROFILE_STORE_BIND_HOST=127.0.0.1");
        } finally {
            service.after();
        }
    }

    @Test
    void authenticationOffOnLoopbackStartsAndAnswersThereOnly() throws Exception {
        var service = service("127.0.0.1");
        service.before();
        try {
            var me = new Api(service.getLocalPort()).as(null).send("GET", "/v1/me", null, null, Map.of());
            assertThat(me.status()).as(me.body()).isEqualTo(200);
            var elsewhere = NetworkInterface.networkInterfaces().flatMap(NetworkInterface::inetAddresses)
                    .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress()).findFirst();
            if (elsewhere.isPresent()) {
                for (int port : new int[] {service.getLocalPort(), service.getAdminPort()}) {
                    assertThatThrownBy(() -> connect(new InetSocketAddress(elsewhere.get(), port)))
                            .as("port " + port + " on " + elsewhere.get()).isInstanceOf(IOException.class);
                }
            }
        } finally {
            service.after();
        }
    }

    private static void connect(InetSocketAddress address) throws IOException {
        try (var socket = new Socket()) {
            socket.connect(address, 2000);
        }
    }

    private static DropwizardTestSupport<ProfileStoreConfiguration> service(String bindHost) {
        return new DropwizardTestSupport<>(ProfileStoreApplication.class, TestStack.configPath(),
                TestStack.configOverrides(ConfigOverride.config("auth.enabled", "false"),
                        ConfigOverride.config("server.applicationConnectors[0].bindHost", bindHost),
                        ConfigOverride.config("server.adminConnectors[0].bindHost", bindHost)));
    }
}
