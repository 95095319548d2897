package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.deploy.PodSecurity.Level;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every pod the chart renders (the API, the indexer, migrate, the CronJobs, the helm test) meets Pod Security's
 * restricted level with each value set, so that a namespace enforcing it admits the release; and the check sees each
 * control it is for.
 */
class ChartPodSecurityTest {

    @ParameterizedTest
    @EnumSource(Values.class)
    void everyPodTheChartRendersMeetsRestricted(Values values) {
        var pods = ChartLeastPrivilegeTest.pods(Charts.documents(values));
        assertThat(pods.keySet()).as("the chart's pods").contains("Deployment/profile-store-api",
                "Deployment/profile-store-indexer", "Job/profile-store-migrate", "CronJob/profile-store-reconcile",
                "CronJob/profile-store-check-tables", "Pod/profile-store-test-healthcheck");
        pods.forEach((name, pod) -> {
            assertThat(pod.path("containers")).as("%s has containers", name).isNotEmpty();
            assertThat(PodSecurity.violations(pod, Level.RESTRICTED)).as("%s against restricted", name).isEmpty();
        });
    }

    /** A restricted pod passes; each change below breaks one control, and the check names it. */
    @Test
    void theCheckSeesEachControl() throws IOException {
        var restricted = Charts.YAML.readTree("""
                securityContext:
                  runAsNonRoot: true
                  seccompProfile:
                    type: RuntimeDefault
                initContainers:
                  - name: init
                    securityContext:
                      allowPrivilegeEscalation: false
                      capabilities:
                        drop: [ALL]
                containers:
                  - name: app
                    securityContext:
                      allowPrivilegeEscalation: false
                      capabilities:
                        drop: [ALL]
                        add: [NET_BIND_SERVICE]
                volumes:
                  - name: config
                    configMap:
                      name: app
                """);
        assertThat(PodSecurity.violations(restricted, Level.RESTRICTED)).isEmpty();

        record Breach(String control, Level level, Consumer<ObjectNode> change) {
        }
        for (var breach : List.of(
                new Breach("host namespaces", Level.BASELINE, pod -> pod.put("hostNetwork", true)),
                new Breach("privileged", Level.BASELINE, pod -> context(pod, "containers").put("privileged", true)),
                new Breach("capability added: SYS_ADMIN", Level.BASELINE, pod -> context(pod, "initContainers")
                        .withObject("/capabilities").putArray("add").add("SYS_ADMIN")),
                new Breach("hostPath", Level.BASELINE, pod -> ((ObjectNode) pod.withArray("volumes").addObject())
                        .put("name", "host").putObject("hostPath").put("path", "/")),
                new Breach("hostPort", Level.BASELINE, pod -> ((ObjectNode) pod.path("containers").get(0))
                        .putArray("ports").addObject().put("containerPort", 80).put("hostPort", 80)),
                new Breach("seccompProfile Unconfined", Level.BASELINE, pod -> context(pod, "containers")
                        .putObject("seccompProfile").put("type", "Unconfined")),
                new Breach("sysctl", Level.BASELINE, pod -> pod.withObject("/securityContext").putArray("sysctls")
                        .addObject().put("name", "vm.max_map_count").put("value", "262144")),
                new Breach("volume type", Level.RESTRICTED, pod -> ((ObjectNode) pod.withArray("volumes").addObject())
                        .put("name", "nfs").putObject("nfs").put("server", "nfs.example")),
                new Breach("allowPrivilegeEscalation", Level.RESTRICTED, pod -> context(pod, "initContainers")
                        .remove("allowPrivilegeEscalation")),
                new Breach("runAsNonRoot", Level.RESTRICTED, pod -> pod.withObject("/securityContext").remove("runAsNonRoot")),
                new Breach("runAsUser 0", Level.RESTRICTED, pod -> context(pod, "containers").put("runAsUser", 0)),
                new Breach("seccompProfile not RuntimeDefault", Level.RESTRICTED, pod -> pod.withObject("/securityContext")
                        .remove("seccompProfile")),
                new Breach("capabilities not dropping ALL", Level.RESTRICTED, pod -> context(pod, "containers")
                        .withObject("/capabilities").putArray("drop").add("NET_RAW")),
                new Breach("capability added beyond NET_BIND_SERVICE", Level.RESTRICTED, pod -> context(pod, "containers")
                        .withObject("/capabilities").putArray("add").add("CHOWN")))) {
            var pod = (ObjectNode) restricted.deepCopy();
            breach.change().accept(pod);
            assertThat(PodSecurity.violations(pod, Level.RESTRICTED)).as(breach.control())
                    .anyMatch(v -> v.startsWith(breach.control()));
            assertThat(PodSecurity.violations(pod, Level.BASELINE)).as("%s under baseline", breach.control())
                    .hasSize(breach.level() == Level.BASELINE ? 1 : 0);
        }
        // a container may set what the pod leaves out
        var perContainer = (ObjectNode) restricted.deepCopy();
        perContainer.remove("securityContext");
        for (var kind : List.of("initContainers", "containers")) {
            context(perContainer, kind).put("runAsNonRoot", true).putObject("seccompProfile").put("type", "RuntimeDefault");
        }
        assertThat(PodSecurity.violations(perContainer, Level.RESTRICTED)).isEmpty();
    }

    private static ObjectNode context(ObjectNode pod, String kind) {
        return (ObjectNode) pod.path(kind).get(0).path("securityContext");
    }
}
