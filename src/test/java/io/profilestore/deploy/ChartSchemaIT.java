package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.deploy.Charts.Values;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every document the chart renders, with each value set (and with the ServiceMonitor on, which the defaults leave
 * off; staging and production have it and the PrometheusRule on), is valid against the Kubernetes and prometheus-operator schemas (src/test/manifests/validate-manifests.mjs).
 */
class ChartSchemaIT {

    @TempDir
    Path temp;

    @Test
    void everyRenderedDocumentMatchesItsSchema() throws Exception {
        var files = new ArrayList<Path>();
        for (var values : Values.values()) {
            var file = temp.resolve("chart-" + values.name().toLowerCase() + ".yaml");
            Files.writeString(file, Charts.template(values, Map.of()));
            files.add(file);
        }
        var monitored = temp.resolve("chart-default-servicemonitor.yaml");
        Files.writeString(monitored, Charts.template(Values.DEFAULT, Map.of("metrics.serviceMonitor.enabled", true)));
        files.add(monitored);

        var report = Tools.validate(files);
        assertThat(report.exitCode()).as("schema validation:%n%s", report.output()).isZero();
        assertThat(report.output())
                .contains("VALID   apps/v1 Deployment profile-store-api")
                .contains("VALID   batch/v1 Job profile-store-migrate")
                .contains("VALID   batch/v1 CronJob profile-store-reconcile")
                .contains("VALID   batch/v1 CronJob profile-store-check-tables")
                .contains("VALID   monitoring.coreos.com/v1 ServiceMonitor profile-store")
                .contains("VALID   monitoring.coreos.com/v1 PrometheusRule profile-store")
                .containsPattern("manifests: \\d+ valid, 0 invalid, \\d+ skipped");
        // only cert-manager's Certificate (the API's TLS) goes without a schema: one per rendering
        assertThat(report.output().lines().filter(l -> l.startsWith("SKIPPED")).toList()).hasSize(files.size())
                .allMatch(l -> l.startsWith("SKIPPED cert-manager.io/v1 Certificate profile-store"));
    }
}
