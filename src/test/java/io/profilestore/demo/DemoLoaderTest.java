package io.profilestore.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ./run-local --demo} loads its profiles through the API as any client does: with authentication on, with the
 * run's own key, so that none is refused 401.
 */
class DemoLoaderTest {

    HttpServer api;
    final List<String> authorizations = new CopyOnWriteArrayList<>();

    @BeforeEach
    void fakeApi() throws Exception {
        api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/v1/profiles", exchange -> {
            exchange.getRequestBody().readAllBytes();
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            authorizations.add(String.valueOf(authorization));
            boolean letIn = authorization == null || authorization.equals("Bearer psk_demo");
            exchange.sendResponseHeaders(letIn ? 201 : 401, -1);
            exchange.close();
        });
        api.start();
    }

    @AfterEach
    void stop() {
        api.stop(0);
    }

    @Test
    void withAKeyEveryCreateCarriesIt() throws Exception {
        int created = DemoLoader.load(base(), 20, 1, "psk_demo");

        assertThat(created).isEqualTo(20);
        assertThat(authorizations).hasSize(20).containsOnly("Bearer psk_demo");
    }

    @Test
    void withoutOneNoneCarriesAHeader() throws Exception {
        int created = DemoLoader.load(base(), 5, 1, null);

        assertThat(created).isEqualTo(5);
        assertThat(authorizations).hasSize(5).containsOnly("null");
    }

    private URI base() {
        return URI.create("http://127.0.0.1:" + api.getAddress().getPort());
    }
}
