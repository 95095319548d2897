package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.deploy.Charts.Values;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Grafana dashboard: a ConfigMap with the label Grafana's sidecar loads dashboards by, on by default and in both
 * environments, its labels, annotations and namespace from values; the dashboard in it is the chart's file, and has
 * what every panel needs (a title, the data source variable, a query), the release's namespace and job in every
 * selector, balanced brackets and known functions. That it loads in Grafana's schema and that its queries parse as
 * PromQL is ChartGrafanaDashboardIT's part (node); that its metrics exist, health.DashboardMetricsIT's.
 */
class ChartGrafanaDashboardTest {

    @ParameterizedTest
    @EnumSource(Values.class)
    void theDashboardIsAConfigMapForGrafanasSidecar(Values values) {
        var docs = Charts.documents(values);
        var maps = Dashboards.configMaps(docs);
        assertThat(maps).singleElement().satisfies(map -> {
            var metadata = map.path("metadata");
            assertThat(metadata.path("name").asText()).isEqualTo("profile-store-dashboard");
            assertThat(metadata.path("namespace").asText()).isEqualTo(Charts.NAMESPACE);
            assertThat(metadata.path("labels").path("grafana_dashboard").asText()).isEqualTo("1");
            assertThat(metadata.path("labels").path("app.kubernetes.io/instance").asText()).isEqualTo(Charts.RELEASE);
            assertThat(map.path("data").size()).isEqualTo(1);
        });
        var dashboard = Dashboards.dashboard(docs);
        assertThat(dashboard).as("the chart's file, as it is").isEqualTo(Dashboards.file());
        assertThat(dashboard.path("uid").asText()).isEqualTo("profile-store");
        assertThat(dashboard.path("schemaVersion").asInt()).isBetween(39, 41);
    }

    @Test
    void labelsAnnotationsAndNamespaceAreValues() {
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of(
                "metrics.grafanaDashboard.labels.grafana_dashboard", "profile-store",
                "metrics.grafanaDashboard.annotations.grafana_folder", "Profile store",
                "metrics.grafanaDashboard.namespace", "monitoring")));
        var metadata = Dashboards.configMaps(docs).get(0).path("metadata");
        assertThat(metadata.path("labels").path("grafana_dashboard").asText()).isEqualTo("profile-store");
        assertThat(metadata.path("annotations").path("grafana_folder").asText()).isEqualTo("Profile store");
        assertThat(metadata.path("namespace").asText()).isEqualTo("monitoring");

        var off = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("metrics.grafanaDashboard.enabled", false)));
        assertThat(Charts.ofKind(off, "ConfigMap")).noneMatch(d -> d.path("metadata").path("name").asText()
                .equals("profile-store-dashboard"));
    }

    /** The panels the seed team asked for (issue 31), each with what it needs. */
    @Test
    void everyPanelHasATitleTheDataSourceAndAQuery() {
        var dashboard = Dashboards.dashboard(Charts.documents(Values.PRODUCTION));
        assertThat(Dashboards.problems(dashboard)).isEmpty();
        var exprs = String.join("\n", Dashboards.queries(dashboard).stream().map(Dashboards.Query::expr).toList());
        assertThat(exprs).contains("http_server_requests_seconds_count", "histogram_quantile(0.5,",
                "histogram_quantile(0.99,", "problems_total", "indexer_lag_ms", "events_outbox_backlog",
                "events_outbox_oldest_age_seconds", "locks_conflicts_total", "audit_queued",
                "audit_machine_searches_queued", "audit_failures_total", "rate_limit_requests_total",
                "profile_store_postgres_pool_ActiveConnections", "profile_store_cql_requests", "jvm_memory_heap_used",
                "jvm_gc_G1_Young_Generation_time", "jvm_threads_count");
        assertThat(Dashboards.panels(dashboard)).allSatisfy(panel -> {
            var grid = panel.path("gridPos");
            assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as(panel.path("title").asText())
                    .isLessThanOrEqualTo(24);
        });
    }

    /** The checks can fail: each mistake, put into a copy of the dashboard, is reported where it is. */
    @Test
    void aBrokenDashboardIsReported() {
        var dashboard = (ObjectNode) Dashboards.file().deepCopy();
        var panels = Dashboards.panels(dashboard);
        ((ObjectNode) panels.get(0)).put("title", "");
        ((ObjectNode) panels.get(1)).remove("datasource");
        ((ObjectNode) panels.get(2)).putArray("targets");
        target(panels.get(3)).put("expr", "histogram_quantile(0.99, sum by (route, le) (rate(x{" + Dashboards.RELEASE
                + "}[$__rate_interval]))");
        target(panels.get(4)).put("expr", "max(indexer_lag_ms{" + Dashboards.RELEASE + ", quantile=\"0.99\"}))");
        target(panels.get(5)).put("expr", "max(indexer_queue_depth{namespace=\"$namespace\"})");
        target(panels.get(6)).put("expr", "sum(rat(indexer_indexed_total{" + Dashboards.RELEASE + "}[5m]))");
        ((ArrayNode) dashboard.path("templating").path("list")).remove(2);
        var panelTwo = panels.get(2).path("title").asText();

        assertThat(Dashboards.problems(dashboard))
                .anySatisfy(p -> assertThat(p).isEqualTo("panel " + panels.get(0).path("id") + ": no title"))
                .anySatisfy(p -> assertThat(p).startsWith(panels.get(1).path("title").asText()
                        + ": its data source is not the ${datasource} variable"))
                .anySatisfy(p -> assertThat(p).isEqualTo(panelTwo + ": no query"))
                .anySatisfy(p -> assertThat(p).startsWith(panels.get(3).path("title").asText() + " (A): unclosed [(]"))
                .anySatisfy(p -> assertThat(p).startsWith(panels.get(4).path("title").asText() + " (A): unbalanced ')'"))
                .anySatisfy(p -> assertThat(p).isEqualTo(panels.get(5).path("title").asText()
                        + " (A): indexer_queue_depth is not selected with " + Dashboards.RELEASE))
                .anySatisfy(p -> assertThat(p).startsWith(panels.get(6).path("title").asText()
                        + " (A): unknown function rat "))
                .anySatisfy(p -> assertThat(p).isEqualTo("no variable job"))
                .hasSize(8);
    }

    @Test
    void grafanasIntervalsBecomeDurationsAndOtherVariablesStay() {
        assertThat(Dashboards.asPromQL("rate(x{namespace=\"$namespace\"}[$__rate_interval]) + rate(y[${__interval}])"))
                .isEqualTo("rate(x{namespace=\"$namespace\"}[5m]) + rate(y[5m])");
    }

    private static ObjectNode target(JsonNode panel) {
        return (ObjectNode) panel.path("targets").get(0);
    }
}
