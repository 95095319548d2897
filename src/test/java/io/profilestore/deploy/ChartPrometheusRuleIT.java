package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * runbook section of docs/operations/runbooks.md; every expression is valid PromQL (parsed with the Prometheus
 * project's grammar and type-checked, its {@code for} a duration) and reads the release's own series. That the
 * metrics exist is health.PrometheusRuleMetricsIT's part (it runs the service); that the document is a valid
 * PrometheusRule, ChartSchemaIT's.
 */
class ChartPrometheusRuleIT {

    /** The sections of docs/operations/runbooks.md the alerts link to. */
    static final Set<String> RUNBOOKS = Set.of("runbook-index-lag", "runbook-outbox-backlog", "runbook-dead-letters",
            "runbook-lock-conflicts", "runbook-5xx", "runbook-connection-pool", "runbook-audit-failures",
            "runbook-audit-retention", "runbook-maintenance-jobs", "runbook-pods-down", "runbook-cassandra-quorum-lost",
            "runbook-rate-limited");

    @ParameterizedTest
    @EnumSource(value = Values.class, names = {"STAGING", "PRODUCTION"})
    void everyAlertHasASeverityASummaryADescriptionAndARunbook(Values values) {
        var docs = Charts.documents(values);
        assertThat(Charts.ofKind(docs, "PrometheusRule")).hasSize(1);
        var rules = AlertRules.rules(docs);
        assertThat(rules).extracting(r -> r.path("alert").asText()).containsExactlyInAnyOrder(
                "ProfileStoreIndexLag", "ProfileStoreIndexerStalled", "ProfileStoreOutboxBacklog",
                "ProfileStoreDeadLetters", "ProfileStoreLockConflicts", "ProfileStoreServerErrors",
                "ProfileStoreConnectionPoolTimeouts", "ProfileStoreAuditFailures", "ProfileStoreAuditRetentionFailing",
                "ProfileStoreCassandraQuorumLost",
                "ProfileStoreCallerRateLimited", "ProfileStorePodDown",
                "ProfileStoreDeploymentUnavailable",
                "ProfileStoreMaintenanceFailed", "ProfileStoreMaintenanceFailed",
                "ProfileStoreMaintenanceNotSucceeding", "ProfileStoreMaintenanceNotSucceeding");
        var checked = AlertRules.check(docs);
        var anchors = new ArrayList<String>();
        for (var i = 0; i < rules.size(); i++) {
            var rule = rules.get(i);
            String alert = rule.path("alert").asText();
            assertThat(rule.path("labels").path("severity").asText()).as(alert).isIn("warning", "critical");
            var annotations = rule.path("annotations");
            assertThat(annotations.path("summary").asText()).as(alert).isNotBlank();
            assertThat(annotations.path("description").asText()).as(alert).isNotBlank();
            String runbook = annotations.path("runbook_url").asText();
            assertThat(runbook).as(alert).startsWith("https://github.com/profile-store/profile-store/blob/main/docs/operations/runbooks.md#");
            anchors.add(runbook.substring(runbook.indexOf('#') + 1));
            String expr = rule.path("expr").asText();
            // the release's own series only: its namespace, and for the service's metrics its admin Service
            assertThat(expr).as(alert).contains("namespace=\"profile-store\"");
            assertThat(checked.get(i).metrics()).as("%s reads metrics (none are named when its expression is not valid "
                    + "PromQL: everyExpressionIsValidPromQL says why)", alert).isNotEmpty();
            for (var metric : checked.get(i).metrics()) {
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

    /**
     * Every rendered expression parses with the Prometheus project's PromQL grammar (no error node: brackets,
     * durations, label matchers, function names) and passes its type checks (a port of Prometheus's checkAST: a
     * function's arguments, operators' operands), and every {@code for} is a duration Prometheus reads.
     */
    @ParameterizedTest
    @EnumSource(value = Values.class, names = {"STAGING", "PRODUCTION"})
    void everyExpressionIsValidPromQL(Values values) {
        var checked = AlertRules.check(Charts.documents(values));
        assertThat(checked).hasSize(17);
        assertThat(AlertRules.errorsOf(checked)).as("PromQL errors of the %s alerts", values).isEmpty();
    }

    /** The check can fail: each kind of mistake, put into one rendered production rule, is reported with its alert. */
    @Test
    void brokenPromQLIsReportedWithItsAlert() {
        var rules = JsonNodeFactory.instance.arrayNode();
        var docs = Charts.documents(Values.PRODUCTION);
        for (var rule : AlertRules.rules(docs)) {
            var entry = rules.addObject().put("name", AlertRules.name(rule)).put("expr", rule.path("expr").asText());
            if (rule.has("for")) {
                entry.put("for", rule.path("for").asText());
            }
        }
        var broken = Map.of(
                "ProfileStoreIndexLag", Map.of("expr", "max(indexer_lag_ms{job=\"a\"} / 1000 > 30"),
                "ProfileStoreLockConflicts", Map.of("expr", "sum(rate(locks_conflicts_total{job=\"a\"}[5mm])) > 1"),
                "ProfileStoreDeadLetters", Map.of("expr", "max(indexer_dead_letter_queue_depth{job==\"a\"}) > 0"),
                "ProfileStoreAuditFailures", Map.of("expr", "sum(increse(audit_failures_total{job=\"a\"}[5m])) > 0"),
                "ProfileStoreConnectionPoolTimeouts", Map.of("expr", "sum(rate(x_total{job=\"a\"})) > 0"),
                "ProfileStorePodDown", Map.of("for", "5mm"));
        rules.forEach(rule -> broken.getOrDefault(rule.path("name").asText(), Map.of())
                .forEach((key, value) -> ((ObjectNode) rule).put(key, value)));

        var errors = AlertRules.errorsOf(AlertRules.check(rules));
        assertThat(errors).anySatisfy(e -> assertThat(e).startsWith("ProfileStoreIndexLag: syntax error at 1:"))
                .anySatisfy(e -> assertThat(e).startsWith("ProfileStoreLockConflicts: syntax error at 1:").contains("[5m»m]"))
                .anySatisfy(e -> assertThat(e).startsWith("ProfileStoreDeadLetters: syntax error at 1:"))
                .anySatisfy(e -> assertThat(e).startsWith("ProfileStoreAuditFailures: syntax error at 1:"))
                .anySatisfy(e -> assertThat(e).startsWith("ProfileStoreConnectionPoolTimeouts: expected type matrix "
                        + "in call to function \"rate\", got vector"))
                .anySatisfy(e -> assertThat(e).isEqualTo("ProfileStorePodDown: for: '5mm' is not a Prometheus "
                        + "duration (such as 5m or 1h30m)"));
        assertThat(errors).as("only the broken rules").allMatch(e -> broken.keySet().stream().anyMatch(e::startsWith));
        // the metric names are not read from an expression that does not parse
        var unbalanced = Charts.parse("kind: PrometheusRule\nspec: {groups: [{rules: [{alert: A, expr: 'sum(rate(x[5m]) > 0'}]}]}");
        assertThatThrownBy(() -> AlertRules.metricNames(unbalanced)).hasMessageContaining("A: syntax error at 1:");
    }

    /** The metric names come from the parse tree: without braces too, and never a function, a label or a string. */
    @Test
    void theMetricNamesAreTheExpressionsSelectors() {
        var rules = JsonNodeFactory.instance.arrayNode();
        rules.addObject().put("name", "A").put("expr", "max by (namespace) (indexer_queue_depth{job=\"a\", "
                + "x=~\"b{c}\"}) > 0 and sum(rate(indexer_indexed_total[5m])) == 0 or on (namespace) "
                + "label_replace(vector(0), \"namespace\", \"up\", \"\", \"\")");
        assertThat(AlertRules.check(rules)).singleElement().satisfies(c -> {
            assertThat(c.errors()).isEmpty();
            assertThat(c.metrics()).containsExactly("indexer_indexed_total", "indexer_queue_depth");
        });
    }

    private static List<JsonNode> alerts(List<JsonNode> docs, String name) {
        return AlertRules.rules(docs).stream().filter(r -> r.path("alert").asText().equals(name)).toList();
    }
}
