package io.profilestore.health;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.setup.Environment;
import io.profilestore.api.AdminPaths;
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

    public static final String PATH = AdminPaths.PROMETHEUS;

    private PrometheusEndpoint() {
    }

    /** Serves {@link #PATH} on the admin port of a server or an indexer. */
    public static void install(Environment environment) {
        install(environment, new PrometheusRegistry());
    }

    /**
     * Serves {@link #PATH}: Dropwizard's metrics and the Prometheus metrics of {@code labelled}, those that need
     * labels (Dropwizard's have none), such as the rate limits' per caller.
     */
    public static void install(Environment environment, PrometheusRegistry labelled) {
        environment.admin().addServlet("prometheus", servlet(environment.metrics(), labelled)).addMapping(PATH);
    }

    /**
     * A servlet that reads the registry at each scrape. A metric that fails to read (a gauge whose client is
     * closed, say) is left out of that scrape instead of failing all of it.
     */
    public static HttpServlet servlet(MetricRegistry metrics) {
        return servlet(metrics, new PrometheusRegistry());
    }

    /** The same, with Dropwizard's metrics added to {@code registry}, which may hold Prometheus metrics already. */
    public static HttpServlet servlet(MetricRegistry metrics, PrometheusRegistry registry) {
        DropwizardExports.builder()
                .dropwizardRegistry(metrics)
                .invalidMetricHandler((name, error) -> true)
                .register(registry);
        return new PrometheusMetricsServlet(registry);
    }
}
