package io.profilestore.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.deploy.Charts;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.deploy.Dashboards;
import io.profilestore.resources.RequestMetrics;
import io.profilestore.testing.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The chart's Grafana dashboard reads metrics the service really exposes: every metric name its queries select (from
 * the PromQL grammar's parse tree, the variables' label_values selectors too) has samples at the admin port's
 * /prometheus. The service runs as production runs it, a process of its own started with the server command (its
 * indexer in process, so both roles' metrics are there): only then does Dropwizard register the JVM's metrics, which
 * an application started inside the test's JVM lacks. The JVM collects with G1, as the chart has it
 * (-XX:+UseG1GC), whose collectors' names the GC panel reads. A histogram's and a summary's series are named in the
 * queries as the scrape writes them (_bucket, _count), so names compare as they are.
 */
class DashboardMetricsIT {

    private static final Pattern NOT_FOUND_SERIES = Pattern.compile(
            "(?m)^" + RequestMetrics.REQUESTS + "_count\\{.*status=\"404\"}");

    @Test
    void everyMetricTheDashboardReadsIsExposed() throws Exception {
        var names = Dashboards.metricNames(Dashboards.dashboard(Charts.parse(Charts.template(Values.PRODUCTION,
                Map.of()))));
        assertThat(names).as("the dashboard's metrics").contains("http_server_requests_seconds_bucket",
                "http_server_requests_seconds_count", "problems_total", "indexer_lag_ms", "events_outbox_backlog",
                "locks_conflicts_total", "audit_queued", "rate_limit_requests_total",
                "profile_store_postgres_pool_ActiveConnections", "jvm_memory_heap_used");

        String scrape;
        try (var service = ServiceProcess.start("server", null, Map.of("PROFILE_STORE_INDEXER_IN_PROCESS", "true",
                "JAVA_TOOL_OPTIONS", "-XX:+UseG1GC"))) {
            // a request, so that the requests' histogram and the problems' counter have series: a profile not found
            var reply = service.api().get(UUID.randomUUID());
            assertThat(reply.status()).as(reply.body()).isEqualTo(404);
            // Jersey reports a request finished after its answer is written, so the client can have the 404 before
            // its series exist (main's CI scraped in between once): wait for that request's own series
            var last = new AtomicReference<String>();
            Awaitility.await("the 404's series at /prometheus").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> {
                        last.set(scrape(service));
                        return NOT_FOUND_SERIES.matcher(last.get()).find() && last.get()
                                .contains(RequestMetrics.PROBLEMS + "_total{type=\"profile-not-found\"}");
                    });
            scrape = last.get();
        }
        assertThat(PrometheusRuleMetricsIT.missing(names, scrape))
                .as("metrics of the dashboard that /prometheus does not have").isEmpty();
        // the comparison can fail: a misspelt name is missing
        assertThat(PrometheusRuleMetricsIT.missing(List.of("http_server_request_seconds_bucket", "problem_total",
                "jvm_gc_G1_Young_Generation_times"), scrape)).hasSize(3);
    }

    private static String scrape(ServiceProcess service) {
        var metrics = service.admin(PrometheusEndpoint.PATH);
        assertThat(metrics.status()).as(metrics.body()).isEqualTo(200);
        return metrics.body();
    }
}
