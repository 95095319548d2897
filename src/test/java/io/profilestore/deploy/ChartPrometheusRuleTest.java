package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The PrometheusRule: off by default like the ServiceMonitor, on in both environments; an alert for each of the
 * service's signals, the maintenance CronJobs and the pods, each with a severity, a summary, a description and a
 * runbook section of the README; every expression reads the release's own series. That the metrics exist is
 * health.PrometheusRuleMetricsTest's part (it runs the service); that the document is a valid PrometheusRule,
 * ChartSchemaTest's.
 */
class ChartPrometheusRuleTest {

    /** The README sections the alerts link to (README, "Deployment", the runbooks). */
    static final Set<String> RUNBOOKS = Set.of("runbook-index-lag", "runbook-outbox-backlog", "runbook-dead-letters",
            "runbook-lock-conflicts", "runbook-5xx", "runbook-connection-pool", "runbook-audit-failures",
            "runbook-maintenance-jobs", "runbook-pods-down");

    @ParameterizedTest
    @EnumSource(value = Values.class, names = {"STAGING", "PRODUCTION"})
    void everyAlertHasASeverityASummaryADescriptionAndARunbook(Values values) {
        var docs = Charts.documents(values);
        assertThat(Charts.ofKind(docs, "PrometheusRule")).hasSize(1);
        var rules = AlertRules.rules(docs);
        assertThat(rules).extracting(r -> r.path("alert").asText()).containsExactlyInAnyOrder(
                "ProfileStoreIndexLag", "ProfileStoreIndexerStalled", "ProfileStoreOutboxBacklog",
                "ProfileStoreDeadLetters", "ProfileStoreLockConflicts", "ProfileStoreServerErrors",
                "ProfileStoreConnectionPoolTimeouts", "ProfileStoreAuditFailures", "ProfileStorePodDown",
                "ProfileStoreDeploymentUnavailable",
                "ProfileStoreMaintenanceFailed", "ProfileStoreMaintenanceFailed",
                "ProfileStoreMaintenanceNotSucceeding", "ProfileStoreMaintenanceNotSucceeding");
        var anchors = new ArrayList<String>();
        for (var rule : rules) {
            String alert = rule.path("alert").asText();
            assertThat(rule.path("labels").path("severity").asText()).as(alert).isIn("warning", "critical");
            var annotations = rule.path("annotations");
            assertThat(annotations.path("summary").asText()).as(alert).isNotBlank();
            assertThat(annotations.path("description").asText()).as(alert).isNotBlank();
            String runbook = annotations.path("runbook_url").asText();
            assertThat(runbook).as(alert).startsWith("https://github.com/profile-store/profile-store/blob/main/README.md#");
            anchors.add(runbook.substring(runbook.indexOf('#') + 1));
            String expr = rule.path("expr").asText();
            assertThat(balanced(expr)).as("%s: brackets of %s", alert, expr).isTrue();
            // the release's own series only: its namespace, and for the service's metrics its admin Service
            assertThat(expr).as(alert).contains("namespace=\"profile-store\"");
            for (var metric : AlertRules.metricNames(expr)) {
                if (!metric.startsWith("kube_")) {
                    assertThat(expr).as("%s selects %s of the release's pods", alert, metric)
                            .contains(metric + "{namespace=\"profile-store\", job=\"profile-store-admin\"");
                }
            }
        }
        assertThat(RUNBOOKS).containsAll(anchors);
        assertThat(anchors).containsAll(RUNBOOKS);
    }

    @Test
    void theMaintenanceAlertsFollowTheCronJobs() {
        var docs = Charts.documents(Values.PRODUCTION);
        var failed = alerts(docs, "ProfileStoreMaintenanceFailed");
        assertThat(failed).extracting(r -> r.path("labels").path("cronjob").asText())
                .containsExactlyInAnyOrder("profile-store-reconcile", "profile-store-check-tables");
        for (var rule : failed) {
            String cronJob = rule.path("labels").path("cronjob").asText();
            // the Jobs a CronJob starts are named <cronjob>-<minutes since the epoch>
            assertThat(rule.path("expr").asText()).contains("job_name=~\"" + cronJob + "-[0-9]+\"")
                    .contains("kube_job_failed").contains("kube_cronjob_status_last_successful_time");
        }
        var stale = alerts(docs, "ProfileStoreMaintenanceNotSucceeding");
        assertThat(stale).extracting(r -> r.path("labels").path("cronjob").asText() + " " + r.path("expr").asText())
                .anySatisfy(s -> assertThat(s).startsWith("profile-store-reconcile ").contains("> 180000"))
                .anySatisfy(s -> assertThat(s).startsWith("profile-store-check-tables ").contains("> 50400"));

        var withoutReconcile = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("cronJobs.reconcile.enabled", false)));
        assertThat(alerts(withoutReconcile, "ProfileStoreMaintenanceFailed"))
                .extracting(r -> r.path("labels").path("cronjob").asText()).containsExactly("profile-store-check-tables");
    }

    @Test
    void offByDefaultAndNotWithoutTheServiceMonitor() {
        assertThat(Charts.ofKind(Charts.documents(Values.DEFAULT), "PrometheusRule")).isEmpty();
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of("metrics.serviceMonitor.enabled", true,
                "metrics.prometheusRule.enabled", true, "metrics.prometheusRule.labels.release", "kube-prometheus-stack")));
        var rule = Charts.ofKind(docs, "PrometheusRule").get(0);
        assertThat(rule.path("metadata").path("labels").path("release").asText()).isEqualTo("kube-prometheus-stack");
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("metrics.prometheusRule.enabled", true)))
                .hasMessageContaining("metrics.prometheusRule needs metrics.serviceMonitor.enabled");
    }

    @Test
    void aMetricWithoutBracesIsNotLetThrough() {
        assertThat(AlertRules.metricNames("max by (namespace) (indexer_queue_depth{job=\"a\", x=~\"b{c}\"}[5m]) > 0"))
                .containsExactly("indexer_queue_depth");
        assertThatThrownBy(() -> AlertRules.metricNames("sum(rate(indexer_indexed_total[5m])) == 0"))
                .hasMessageContaining("'indexer_indexed_total'");
    }

    private static List<JsonNode> alerts(List<JsonNode> docs, String name) {
        return AlertRules.rules(docs).stream().filter(r -> r.path("alert").asText().equals(name)).toList();
    }

    private static boolean balanced(String expr) {
        var open = new ArrayList<Character>();
        boolean quoted = false;
        for (char c : expr.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && "({[".indexOf(c) >= 0) {
                open.add(c);
            } else if (!quoted && ")}]".indexOf(c) >= 0) {
                if (open.isEmpty() || "({[".indexOf(open.remove(open.size() - 1)) != ")}]".indexOf(c)) {
                    return false;
                }
            }
        }
        return open.isEmpty() && !quoted;
    }
}
