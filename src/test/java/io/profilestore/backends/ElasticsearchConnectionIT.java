package io.profilestore.backends;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.transport.rest5_client.low_level.Request;
import co.elastic.clients.transport.rest5_client.low_level.Rest5Client;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;
import org.junit.jupiter.api.Test;

/**
 * The HTTP client under the Elasticsearch client, as the build resolves it, sends without Nagle's delay. With
 * HttpCore 5.4 (what Dropwizard's BOM chose) its reactor never set TCP_NODELAY: a search whose body took two
 * segments waited for the server's delayed ACK, 40 ms each time on a kept-alive connection (every q search, the
 * benchmark of 2026-12-01). Timing that would be a flaky test; the socket option is what went wrong.
 */
class ElasticsearchConnectionIT {

    @Test
    void theElasticsearchClientsConnectionsSendWithoutNaglesDelay() throws Exception {
        List<Boolean> noDelay = new CopyOnWriteArrayList<>();
        var listener = new IOSessionListener() {
            @Override
            public void connected(IOSession session) {
                try {
                    noDelay.add(((SocketChannel) session.channel()).getOption(StandardSocketOptions.TCP_NODELAY));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public void startTls(IOSession session) {
            }

            @Override
            public void inputReady(IOSession session) {
            }

            @Override
            public void outputReady(IOSession session) {
            }

            @Override
            public void timeout(IOSession session) {
            }

            @Override
            public void exception(IOSession session, Exception ex) {
            }

            @Override
            public void disconnected(IOSession session) {
            }
        };
        try (var client = Rest5Client.builder(URI.create(TestStack.endpoints().elasticsearchUrl()))
                .setHttpClientConfigCallback(builder -> builder.setIOSessionListener(listener)).build()) {
            var request = new Request("POST", "/_search");
            request.setJsonEntity("{\"size\": 0, \"query\": {\"match_all\": {}}}");
            assertThat(client.performRequest(request).getStatusCode()).isEqualTo(200);
        }

        assertThat(noDelay).as("the connections made").isNotEmpty().containsOnly(true);
    }
}
