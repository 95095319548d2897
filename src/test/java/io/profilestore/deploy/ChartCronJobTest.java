package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The maintenance CronJobs, reconcile and check-tables: each runs its command with the migrate Job's image, command
 * line, Secrets and configuration (with a small PostgreSQL pool), one run at a time, with deadlines and history
 * limits; each can be switched off; while check-tables runs as a CronJob the API does not schedule it itself.
 */
class ChartCronJobTest {

    static final Map<String, String> COMMANDS = Map.of("profile-store-reconcile", "reconcile",
            "profile-store-check-tables", "check-tables");

    @ParameterizedTest
    @EnumSource(Values.class)
    void eachRunsItsCommandLikeMigrateOneRunAtATime(Values values) {
        var docs = Charts.documents(values);
        var migrate = Charts.named(docs, "Job", "profile-store-migrate").path("spec").path("template").path("spec");
        var migrateContainer = migrate.path("containers").get(0);
        for (var e : COMMANDS.entrySet()) {
            var cronJob = Charts.named(docs, "CronJob", e.getKey());
            var spec = cronJob.path("spec");
            assertThat(spec.path("schedule").asText()).isNotBlank();
            assertThat(spec.path("timeZone").asText()).isEqualTo("Etc/UTC");
            assertThat(spec.path("concurrencyPolicy").asText()).isEqualTo("Forbid");
            assertThat(spec.path("startingDeadlineSeconds").asInt()).isGreaterThanOrEqualTo(10);
            assertThat(spec.path("failedJobsHistoryLimit").asInt()).as("a failed run is kept for its log").isPositive();
            assertThat(spec.path("successfulJobsHistoryLimit").isInt()).isTrue();
            var job = spec.path("jobTemplate").path("spec");
            assertThat(job.path("backoffLimit").isInt()).isTrue();
            assertThat(job.path("activeDeadlineSeconds").asInt()).isPositive();
            var pod = job.path("template").path("spec");
            assertThat(pod.path("restartPolicy").asText()).isEqualTo("Never");
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
            var container = pod.path("containers").get(0);
            assertThat(args(container)).endsWith("-cp", "@/app/jib-classpath-file",
                    "io.profilestore.ProfileStoreApplication", e.getValue(), "/config/profile-store.yml");
            // what migrate runs with, but for the command and the pool
            assertThat(container.path("image")).isEqualTo(migrateContainer.path("image"));
            assertThat(container.path("command")).isEqualTo(migrateContainer.path("command"));
            assertThat(args(container).subList(0, args(container).size() - 2))
                    .isEqualTo(args(migrateContainer).subList(0, args(migrateContainer).size() - 2));
            assertThat(container.path("volumeMounts")).isEqualTo(migrateContainer.path("volumeMounts"));
            assertThat(container.path("securityContext")).isEqualTo(migrateContainer.path("securityContext"));
            assertThat(pod.path("securityContext")).isEqualTo(migrate.path("securityContext"));
            // the same Secrets, but for the migration logins, which are migrate's alone
            assertThat(secrets(pod)).isNotEmpty().isEqualTo(ChartLeastPrivilegeTest.withoutMigrationLogins(secrets(migrate)));
            assertThat(container.path("resources").path("limits").path("memory").isMissingNode()).isFalse();
            assertThat(configMapOf(pod)).isEqualTo("profile-store-cronjobs");
            // the network policy lets its pods reach the backing services
            var policy = Charts.ofKind(docs, "NetworkPolicy");
            if (!policy.isEmpty()) {
                var labels = job.path("template").path("metadata").path("labels");
                policy.get(0).path("spec").path("podSelector").path("matchLabels").fields().forEachRemaining(l ->
                        assertThat(labels.path(l.getKey()).asText()).as("pod label %s", l.getKey()).isEqualTo(l.getValue().asText()));
            }
        }
        var config = Charts.named(docs, "ConfigMap", "profile-store-cronjobs").path("data").path("profile-store.yml").asText();
        assertThat(ChartTest.withoutPoolSize(config)).isEqualTo(ChartTest.withoutPoolSize(Charts.serviceConfig(docs)));
        assertThat(config).contains("maxPoolSize: 3");
    }

    @Test
    void eachCanBeSwitchedOffAndTheApiThenSchedulesTheTableCheckItself() throws IOException {
        var withoutReconcile = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("cronJobs.reconcile.enabled", false)));
        assertThat(names(withoutReconcile, "CronJob")).containsExactly("profile-store-check-tables");
        assertThat(checkTablesEvery(withoutReconcile)).isEqualTo("0s");

        var withoutCheckTables = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("cronJobs.checkTables.enabled", false)));
        assertThat(names(withoutCheckTables, "CronJob")).containsExactly("profile-store-reconcile");
        assertThat(checkTablesEvery(withoutCheckTables)).as("the service's own default (6 h) applies").isNull();

        var neither = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("cronJobs.reconcile.enabled", false,
                "cronJobs.checkTables.enabled", false)));
        assertThat(names(neither, "CronJob")).isEmpty();
        assertThat(names(neither, "ConfigMap")).doesNotContain("profile-store-cronjobs");
        // and they leave the connection budget
        assertThat(ChartConnectionBudgetIT.total(ChartConnectionBudgetIT.shares(neither)))
                .isEqualTo(ChartConnectionBudgetIT.total(ChartConnectionBudgetIT.shares(Charts.documents(Values.PRODUCTION))) - 2 * 3);
    }

    @Test
    void theSchemaRefusesSchedulesAndLimitsKubernetesWouldNotRunWell() {
        for (var bad : List.of(
                Map.<String, Object>of("cronJobs.reconcile.schedule", "every night"),
                Map.<String, Object>of("cronJobs.checkTables.startingDeadlineSeconds", 5),
                Map.<String, Object>of("cronJobs.checkTables.failedJobsHistoryLimit", 0),
                Map.<String, Object>of("cronJobs.postgresPoolSize", 0),
                Map.<String, Object>of("cronJobs.reconcile.concurrencyPolicy", "Allow"))) {
            assertThatThrownBy(() -> Charts.template(Values.DEFAULT, bad))
                    .as("values %s", bad).hasMessageContaining("values don't meet the specifications of the schema");
        }
    }

    /** users.checkTablesEvery of the API's configuration, or null when it does not set it. */
    private static String checkTablesEvery(List<JsonNode> docs) throws IOException {
        var every = Charts.YAML.readTree(Charts.serviceConfig(docs)).path("users").path("checkTablesEvery");
        return every.isMissingNode() ? null : every.asText();
    }

    private static List<String> names(List<JsonNode> docs, String kind) {
        return Charts.ofKind(docs, kind).stream().map(d -> d.path("metadata").path("name").asText()).toList();
    }

    private static String configMapOf(JsonNode pod) {
        var names = pod.path("volumes").findValues("configMap").stream().map(c -> c.path("name").asText()).toList();
        assertThat(names).hasSize(1);
        return names.get(0);
    }

    private static JsonNode secrets(JsonNode pod) {
        return pod.path("volumes").findValue("projected");
    }

    private static List<String> args(JsonNode container) {
        var args = new ArrayList<String>();
        container.path("args").forEach(a -> args.add(a.asText()));
        return args;
    }
}
