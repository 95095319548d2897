package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.deploy.Charts.Values;
import org.junit.jupiter.api.Test;

/**
 * The chart's Grafana dashboard loads in Grafana's schema and its queries are PromQL, both checked with node
 * (src/test/manifests): the schema is the one Grafana publishes as TypeScript types in {@code @grafana/schema}
 * 13.2.3 (pinned in package-lock.json): its Dashboard, and the timeseries panel's Options and FieldConfig, turned
 * into JSON Schema by ts-json-schema-generator 2.4.0 with every object closed, and checked with Ajv
 * (validate-dashboard.mjs); the queries are parsed with the Prometheus project's grammar and type-checked
 * (validate-promql.mjs, as the alerts are), Grafana's interval variables standing in as durations. That the metrics
 * exist is health.DashboardMetricsIT's part.
 */
class ChartGrafanaDashboardIT {

    @Test
    void theDashboardLoadsInGrafanasSchema() {
        var validation = Dashboards.validate(Dashboards.dashboard(Charts.documents(Values.PRODUCTION)));
        assertThat(validation.schema()).startsWith("@grafana/schema 13.2.3 (Dashboard; the Options and FieldConfig of "
                + "timeseries), as JSON Schema by ts-json-schema-generator 2.4.0");
        assertThat(validation.errors()).isEmpty();
    }

    /** The check can fail: each mistake, put into a copy of the dashboard, is reported where it is. */
    @Test
    void aDashboardOutsideTheSchemaIsReported() {
        var dashboard = (ObjectNode) Dashboards.file().deepCopy();
        dashboard.put("schemaVersion", "39");
        var panels = Dashboards.panels(dashboard);
        ((ObjectNode) panels.get(0)).put("titel", "misspelt");
        ((ObjectNode) panels.get(1).path("options").path("legend")).put("placement", "top");
        ((ObjectNode) panels.get(2).path("fieldConfig").path("defaults").path("custom")).put("lineWidht", 2);
        ((ObjectNode) panels.get(3)).put("type", "graph");
        ((ObjectNode) panels.get(4).path("options")).remove("tooltip");
        int first = index(dashboard, panels.get(0));

        assertThat(Dashboards.validate(dashboard).errors())
                .contains("/schemaVersion must be number",
                        "/panels/" + first + " must NOT have additional properties (titel)",
                        "/panels/" + index(dashboard, panels.get(1)) + "/options/legend/placement must be equal to "
                                + "one of the allowed values",
                        "/panels/" + index(dashboard, panels.get(2)) + "/fieldConfig/defaults/custom must NOT have "
                                + "additional properties (lineWidht)",
                        "/panels/" + index(dashboard, panels.get(3)) + "/type no schema of panel plugin \"graph\" here "
                                + "(known: timeseries)",
                        "/panels/" + index(dashboard, panels.get(4)) + "/options must have required property 'tooltip'");
    }

    @Test
    void everyQueryIsValidPromQLAndSelectsTheRelease() {
        var dashboard = Dashboards.dashboard(Charts.documents(Values.PRODUCTION));
        var queries = Dashboards.queries(dashboard);
        var checked = Dashboards.check(dashboard);
        assertThat(AlertRules.errorsOf(checked)).isEmpty();
        assertThat(checked).hasSameSizeAs(queries);
        for (var i = 0; i < queries.size(); i++) {
            var query = queries.get(i);
            assertThat(checked.get(i).metrics()).as(query.where()).isNotEmpty();
            if (query.ofPanel()) {
                for (var metric : checked.get(i).metrics()) {
                    assertThat(query.expr()).as("%s selects %s of the release", query.where(), metric)
                            .contains(metric + "{" + Dashboards.RELEASE);
                }
            }
        }
    }

    /** The PromQL check can fail: a broken query is reported with its panel, and no metric is read from it. */
    @Test
    void brokenPromQLIsReportedWithItsPanel() {
        var dashboard = (ObjectNode) Dashboards.file().deepCopy();
        var panels = Dashboards.panels(dashboard);
        target(panels.get(0)).put("expr", "sum(rate(x{job=\"a\"}[$__rate_interval])");
        target(panels.get(1)).put("expr", "sum(rate(x{job=\"a\"}))");
        target(panels.get(2)).put("expr", "sum(rate(x{namespace=$namespace}[5m]))");
        var errors = AlertRules.errorsOf(Dashboards.check(dashboard));
        assertThat(errors)
                .anySatisfy(e -> assertThat(e).startsWith(panels.get(0).path("title").asText() + " (A): syntax error"))
                .anySatisfy(e -> assertThat(e).startsWith(panels.get(1).path("title").asText()
                        + " (A): expected type matrix in call to function \"rate\", got vector"))
                .anySatisfy(e -> assertThat(e).startsWith(panels.get(2).path("title").asText() + " (A): syntax error"))
                .as("only the broken queries").allMatch(e -> panels.subList(0, 3).stream()
                        .anyMatch(p -> e.startsWith(p.path("title").asText() + " (A): ")));
        assertThatThrownBy(() -> Dashboards.metricNames(dashboard)).hasMessageContaining("are not valid PromQL");
    }

    private static int index(JsonNode dashboard, JsonNode panel) {
        for (var i = 0; i < dashboard.path("panels").size(); i++) {
            if (dashboard.path("panels").get(i) == panel) {
                return i;
            }
        }
        throw new AssertionError("not a top-level panel: " + panel.path("title"));
    }

    private static ObjectNode target(JsonNode panel) {
        return (ObjectNode) panel.path("targets").get(0);
    }
}
