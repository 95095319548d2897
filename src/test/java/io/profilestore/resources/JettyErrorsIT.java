package io.profilestore.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What Jetty refuses before any of ours runs is answered as a problem; when it leaves a body unread, the answer
 * says the connection closes, so that a client does not send its next request on a connection about to go.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JettyErrorsIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void aMethodJettyRefusesIsAProblem() throws IOException {
        String answer = exchange("TRACE /v1/search HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(answer).startsWith("HTTP/1.1 405").containsIgnoringCase("Content-Type: application/problem+json")
                .contains("\"status\":405");
    }

    @Test
    void aRefusedRequestWithAnUnreadBodyClosesItsConnection() throws IOException {
        String body = "{\"sources\": [\"846686a2-df17-420c-aaa9-312509d3b6f3\"]}";
        String answer = exchange("POST /v1/users/%00/merge HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body);

        assertThat(answer).startsWith("HTTP/1.1 400").containsIgnoringCase("Content-Type: application/problem+json")
                .containsIgnoringCase("Connection: close");
    }

    /** One request on a fresh connection; everything the server sends until it closes (or 5 s of silence). */
    private static String exchange(String request) throws IOException {
        try (var socket = new Socket("127.0.0.1", APP.getLocalPort())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            var read = new ByteArrayOutputStream();
            var buffer = new byte[4096];
            try {
                int n;
                while ((n = socket.getInputStream().read(buffer)) >= 0) {
                    read.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException keptOpen) {
                // the connection stays open: what was read is the answer
            }
            return read.toString(StandardCharsets.UTF_8);
        }
    }
}
