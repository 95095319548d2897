package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The connector the chart renders really serves TLS: Dropwizard builds it from the rendered YAML, with a PKCS12 key
 * store made by keytool (as cert-manager's keystore.p12 would be) at the path the chart mounts, and a client that
 * trusts that certificate gets an answer over HTTPS; a plain HTTP request gets none. Jetty alone, no backing service.
 */
class ChartHttpsConnectorTest {

    static final String MOUNT = "/var/run/secrets/profile-store";
    static final String PASSWORD = "a-generated-password-of-32-chars";

    @TempDir
    Path temp;

    @Test
    void theRenderedConnectorServesHttpsFromAPkcs12KeyStore() throws Exception {
        var keyStore = temp.resolve("tls/keystore.p12");
        Files.createDirectories(keyStore.getParent());
        var keytool = Tools.run(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "certificate", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", PASSWORD,
                "-dname", "CN=profile-store", "-ext", "SAN=dns:localhost,ip:127.0.0.1"), temp);
        assertThat(keytool.exitCode()).as(keytool.output()).isZero();

        var connector = connector(Values.PRODUCTION, Map.of());
        var server = new Server(new QueuedThreadPool(8));
        server.addConnector(connector.build(server, new MetricRegistry(), "application", null));
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                response.write(true, java.nio.ByteBuffer.wrap("over TLS".getBytes()), callback);
                return true;
            }
        });
        server.start();
        try {
            int port = ((ServerConnector) server.getConnectors()[0]).getLocalPort();
            var client = HttpClient.newBuilder().sslContext(trusting(keyStore)).connectTimeout(Duration.ofSeconds(5)).build();
            var answer = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + port + "/ping"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("over TLS");
            assertThat(answer.sslSession()).hasValueSatisfying(s -> assertThat(s.getProtocol()).isIn("TLSv1.3", "TLSv1.2"));
            // no plain HTTP on the same port
            var plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/ping"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(IOException.class);
        } finally {
            server.stop();
        }
    }

    /** The application connector of a rendering, its mount path moved to the temporary folder, on a free port. */
    private HttpConnectorFactory connector(Values values, Map<String, Object> set) throws IOException {
        var yaml = Charts.serviceConfig(Charts.parse(Charts.template(values, set)))
                .replace(MOUNT + "/", temp + "/")
                .replace("${file:" + temp + "/tls/keystore-password}", PASSWORD);
        var mapper = Jackson.newObjectMapper(new YAMLFactory());
        var node = mapper.readTree(yaml).path("server").path("applicationConnectors").get(0);
        var connector = (HttpConnectorFactory) mapper.treeToValue(node, ConnectorFactory.class);
        connector.setPort(0);
        connector.setBindHost("127.0.0.1");
        return connector;
    }

    private static SSLContext trusting(Path keyStore) throws Exception {
        var trusted = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            trusted.load(in, PASSWORD.toCharArray());
        }
        var factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        var context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
