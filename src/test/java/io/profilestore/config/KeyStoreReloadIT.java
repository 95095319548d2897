package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.testing.TestCertificates;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The service over https, as the chart runs it: a renewed key store file is served to new connections within seconds,
 * with no restart (cert-manager renews the API's certificate, and nothing else would make the pods read it).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class KeyStoreReloadIT {

    static final Path FOLDER = folder();
    static final TestCertificates FIRST = TestCertificates.create(mkdirs(FOLDER.resolve("first")));
    static final TestCertificates RENEWED = TestCertificates.create(mkdirs(FOLDER.resolve("renewed")));
    static final Path SERVED = copy(FIRST.serverKeyStore(), FOLDER.resolve("keystore.p12"));

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(Map.of(
                    "server.applicationConnectors[0].type", "https",
                    "server.applicationConnectors[0].keyStorePath", SERVED.toString(),
                    "server.applicationConnectors[0].keyStorePassword", TestCertificates.STORE_PASSWORD,
                    "server.applicationConnectors[0].keyStoreType", "PKCS12",
                    "auth.reloadEvery", "1s")));

    @Test
    void aRenewedKeyStoreIsServedWithoutARestart() throws Exception {
        int port = APP.getLocalPort();
        var before = serial(port);

        var next = FOLDER.resolve("keystore.p12.next");
        Files.copy(RENEWED.serverKeyStore(), next, StandardCopyOption.REPLACE_EXISTING);
        Files.move(next, SERVED, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);

        await("the renewed certificate served").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> !serial(port).equals(before));
        assertThat(APP.getEnvironment().metrics().counter("files.tls-key-store.reloaded").getCount())
                .as("its first check and the renewal").isGreaterThanOrEqualTo(1);
    }

    /** The serial number of the certificate the server presents to a new connection. */
    static BigInteger serial(int port) throws Exception {
        return TestCertificates.presentedSerial("127.0.0.1", port);
    }

    private static Path folder() {
        try {
            var folder = Files.createTempDirectory("key-store-reload");
            folder.toFile().deleteOnExit();
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path mkdirs(Path folder) {
        try {
            return Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path copy(Path from, Path to) {
        try {
            return Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
