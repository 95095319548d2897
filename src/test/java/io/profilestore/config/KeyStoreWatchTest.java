package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.testing.TestCertificates;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A renewed key store is served without a restart: Jetty's https connector presents the new certificate to the next
 * connection once its file changed; a store that does not open with the password is refused and the one served stays.
 */
class KeyStoreWatchTest {

    @TempDir
    Path folder;

    @Test
    void aRenewedKeyStoreIsServedToTheNextConnectionAndABrokenOneRefused() throws Exception {
        var first = TestCertificates.create(Files.createDirectories(folder.resolve("first")));
        var renewed = TestCertificates.create(Files.createDirectories(folder.resolve("renewed")));
        var served = folder.resolve("keystore.p12");
        Files.copy(first.serverKeyStore(), served);
        var tls = new SslContextFactory.Server();
        tls.setKeyStorePath(served.toString());
        tls.setKeyStoreType("PKCS12");
        tls.setKeyStorePassword(TestCertificates.STORE_PASSWORD);
        var server = new Server();
        var connector = new ServerConnector(server, tls);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.start();
        try {
            int port = connector.getLocalPort();
            var metrics = new MetricRegistry();
            var watches = KeyStoreWatch.watches(server, metrics);
            assertThat(watches).hasSize(1);
            BigInteger before = serial(port);

            Files.copy(renewed.serverKeyStore(), folder.resolve("next.p12"));
            Files.move(folder.resolve("next.p12"), served, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            assertThat(watches.get(0).check()).isTrue();
            BigInteger after = serial(port);
            assertThat(after).isNotEqualTo(before);

            Files.writeString(served, "not a key store");
            assertThat(watches.get(0).check()).isFalse();
            assertThat(serial(port)).as("the renewed certificate still served").isEqualTo(after);
            assertThat(metrics.counter("files.tls-key-store.refused").getCount()).isEqualTo(1);
        } finally {
            server.stop();
        }
    }

    /** The serial number of the certificate the server presents to a new connection. */
    static BigInteger serial(int port) throws Exception {
        return TestCertificates.presentedSerial("127.0.0.1", port);
    }
}
