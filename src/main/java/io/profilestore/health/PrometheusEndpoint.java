package io.profilestore.health;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.setup.Environment;
import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.servlet.http.HttpServlet;

/**
 * The admin port's {@code /prometheus}: every metric of the service (the same ones {@code /metrics} shows as
 * Dropwizard's JSON) in Prometheus' text format, so that a ServiceMonitor can scrape them. Names are Dropwizard's
 * with dots and dashes turned into underscores: {@code indexer.lag-ms} is {@code indexer_lag_ms}.
 */
public final class PrometheusEndpoint {

    public static final String PATH = "/prometheus";

    private PrometheusEndpoint() {
    }

    /** Serves {@link #PATH} on the admin port of a server or an indexer. */
    public static void install(Environment environment) {
        environment.admin().addServlet("prometheus", servlet(environment.metrics())).addMapping(PATH);
    }

    /**
     * A servlet that reads the registry at each scrape. A metric that fails to read (a gauge whose client is
     * closed, say) is left out of that scrape instead of failing all of it.
     */
    public static HttpServlet servlet(MetricRegistry metrics) {
        var registry = new PrometheusRegistry();
        DropwizardExports.builder()
                .dropwizardRegistry(metrics)
                .invalidMetricHandler((name, error) -> true)
                .register(registry);
        return new PrometheusMetricsServlet(registry);
    }
}
