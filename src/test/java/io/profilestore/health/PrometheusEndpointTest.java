package io.profilestore.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;

/**
 * The admin port's /prometheus, served by Jetty in memory (a LocalConnector: no socket, no backing service): the
 * service's own metrics come out in Prometheus' text format, and a metric that cannot be read does not spoil the
 * scrape.
 */
class PrometheusEndpointTest {

    @Test
    void servesTheRegistryInPrometheusTextFormat() throws Exception {
        var metrics = new MetricRegistry();
        metrics.counter("indexer.indexed").inc(3);
        metrics.register("events.outbox.backlog", (Gauge<Integer>) () -> 7);
        metrics.register("indexer.lag-ms", (Gauge<Long>) () -> 250L);
        metrics.timer("indexer.bulk").update(40, TimeUnit.MILLISECONDS);
        metrics.register("not.a.number", (Gauge<String>) () -> "text");
        metrics.register("broken.gauge", (Gauge<Long>) () -> {
            throw new IllegalStateException("client closed");
        });

        var server = new Server();
        var connector = new LocalConnector(server);
        server.addConnector(connector);
        var context = new ServletContextHandler();
        context.addServlet(new ServletHolder(PrometheusEndpoint.servlet(metrics)), PrometheusEndpoint.PATH);
        server.setHandler(context);
        server.start();
        try {
            var response = HttpTester.parseResponse(connector.getResponse(
                    "GET /prometheus HTTP/1.1\r\nHost: admin\r\nConnection: close\r\n\r\n"));
            assertThat(response.getStatus()).isEqualTo(200);
            assertThat(response.get("Content-Type")).startsWith("text/plain");
            var body = response.getContent();
            assertThat(body)
                    .contains("# TYPE indexer_indexed_total counter")
                    .containsPattern("(?m)^indexer_indexed_total 3(\\.0)?$")
                    .containsPattern("(?m)^events_outbox_backlog 7(\\.0)?$")
                    .containsPattern("(?m)^indexer_lag_ms 250(\\.0)?$")
                    // a timer is a summary in seconds
                    .contains("# TYPE indexer_bulk summary")
                    .containsPattern("(?m)^indexer_bulk\\{quantile=\"0.99\"} 0.04$")
                    .containsPattern("(?m)^indexer_bulk_count 1$")
                    .doesNotContain("not_a_number")
                    .doesNotContain("broken_gauge");
        } finally {
            server.stop();
        }
    }
}
