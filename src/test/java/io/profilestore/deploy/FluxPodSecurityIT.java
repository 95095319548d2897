package io.profilestore.deploy;

import static io.profilestore.deploy.Flux.instances;
import static io.profilestore.deploy.Flux.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.deploy.PodSecurity.Level;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pod Security Admission on the namespace of the app and its backing services, as flux/ renders it for each
 * environment: baseline enforced, restricted audited and warned of, each at a pinned version of the standards (the
 * Kubernetes the manifests are validated for). Baseline, not restricted, is enforced because the operators' pods in the
 * namespace do not all meet restricted: cass-operator v1.28 gives Cassandra's pods no seccomp profile and drops no
 * capabilities (pkg/reconciliation/construct_podtemplatespec.go), and enforcing restricted would refuse them. The
 * chart's own pods meet restricted (ChartPodSecurityTest).
 */
class FluxPodSecurityIT {

    static final String PREFIX = "pod-security.kubernetes.io/";

    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void theNamespaceEnforcesBaselineAndWarnsAndAuditsRestrictedAtAPinnedVersion(String env) throws IOException {
        var docs = instances(env);
        var namespaces = Charts.ofKind(docs, "Namespace");
        assertThat(namespaces).as("the namespace flux/ makes").hasSize(1);
        var namespace = namespaces.get(0);
        var labels = namespace.path("metadata").path("labels");
        var version = "v" + Charts.KUBE_VERSION.replaceFirst("^(\\d+\\.\\d+)\\..*$", "$1");
        assertThat(labels.path(PREFIX + "enforce").asText()).isEqualTo("baseline");
        assertThat(labels.path(PREFIX + "audit").asText()).isEqualTo("restricted");
        assertThat(labels.path(PREFIX + "warn").asText()).isEqualTo("restricted");
        for (var mode : new String[] {"enforce", "audit", "warn"}) {
            assertThat(labels.path(PREFIX + mode + "-version").asText()).as("%s pinned, not latest", mode).isEqualTo(version);
        }
        // the instances and the app live there
        var backends = docs.stream().filter(d -> d.path("apiVersion").asText().contains(".")).toList();
        assertThat(backends).as("the instances' resources").isNotEmpty()
                .allSatisfy(d -> assertThat(d.path("metadata").path("namespace").asText()).as(name(d)).isEqualTo(name(namespace)));
        var release = Charts.named(Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("apps/" + env))), "HelmRelease", "profile-store");
        assertThat(release.path("metadata").path("namespace").asText()).isEqualTo(name(namespace));

        // what flux/ writes into the Elasticsearch pods' template passes baseline (no privileged sysctl container)
        for (var es : Charts.ofKind(docs, "Elasticsearch")) {
            for (var nodeSet : es.path("spec").path("nodeSets")) {
                assertThat(PodSecurity.violations(nodeSet.path("podTemplate").path("spec"), Level.BASELINE))
                        .as("%s's pod template", nodeSet.path("name").asText()).isEmpty();
            }
        }
    }
}
