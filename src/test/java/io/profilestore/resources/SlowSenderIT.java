package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A client that trickles a body the service refuses holds none of its threads: the answer comes at once, and the
 * drain of the rest is cut off within seconds, closing the connection.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SlowSenderIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void aTrickledRefusedBodyIsCutOff() throws Exception {
        var trickle = Executors.newSingleThreadExecutor();
        try (var socket = new Socket("127.0.0.1", APP.getLocalPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            // no token: refused with 401 before the body is read; 500,000 bytes announced, 100 sent every 300 ms
            out.write(("POST /v1/profiles HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 500000\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write("{\"data\": {".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long started = System.nanoTime();
            trickle.submit(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        out.write(" ".repeat(100).getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        TimeUnit.MILLISECONDS.sleep(300); // the slow sender itself: its pace is what is tested
                    }
                } catch (IOException | InterruptedException closed) {
                    // the server closed the connection: what should happen
                }
                return null;
            });

            String answer = readUntilClosed(socket.getInputStream());
            double seconds = (System.nanoTime() - started) / 1e9;

            assertThat(answer).startsWith("HTTP/1.1 401");
            assertThat(seconds).as("the connection closed by the service after %.1f s, the trickle going on", seconds)
                    .isLessThan(10);
        } finally {
            trickle.shutdownNow();
        }
    }

    /** Everything the server sends until it closes; fails when it keeps the connection open 30 s. */
    private static String readUntilClosed(InputStream in) throws IOException {
        var read = new ByteArrayOutputStream();
        var buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                read.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the service kept the connection of a trickled, refused body open for 30 s; "
                    + "it answered: " + read.toString(StandardCharsets.US_ASCII), e);
        } catch (IOException reset) {
            // closed with a reset: closed all the same
        }
        return read.toString(StandardCharsets.US_ASCII);
    }
}
