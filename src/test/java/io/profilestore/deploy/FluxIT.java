package io.profilestore.deploy;

import static io.profilestore.deploy.Flux.name;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * flux/ as a whole: every overlay renders with `kubectl kustomize` and every document is valid against the Kubernetes
 * and Flux schemas; the clusters install in order (controllers, then instances, then the app); production has the
 * design's shape; charts, sources and images are pinned; yamllint is clean. What the app's values name, the backups
 * and the network each have a class of their own: {@link FluxAppIT}, {@link FluxDurabilityIT}, {@link FluxNetworkIT}.
 */
class FluxIT {

    @TempDir
    Path temp;

    /** Every folder of flux/ that kustomize renders, the clusters' folders included. */
    private Map<String, List<JsonNode>> renderAll() throws IOException {
        var rendered = new LinkedHashMap<String, List<JsonNode>>();
        for (var folder : overlays()) {
            rendered.put(Charts.PROJECT.relativize(folder).toString(), Charts.parse(Tools.kustomize(folder)));
        }
        for (var env : List.of("staging", "production")) {
            rendered.put("flux/clusters/" + env, Charts.parse(Tools.kustomize(clusterAsFluxSeesIt(env))));
        }
        return rendered;
    }

    private static List<Path> overlays() throws IOException {
        try (Stream<Path> files = Files.walk(Flux.FOLDER)) {
            return files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .map(Path::getParent).sorted().toList();
        }
    }

    /**
     * A cluster's folder has no kustomization.yaml (flux bootstrap adds flux-system/ beside its files), so Flux
     * generates one with every manifest of the folder; the same is generated here in a copy.
     */
    private Path clusterAsFluxSeesIt(String env) throws IOException {
        var source = Flux.FOLDER.resolve("clusters").resolve(env);
        assertThat(source.resolve("kustomization.yaml")).doesNotExist();
        var copy = Files.createDirectories(temp.resolve("clusters-" + env));
        var resources = new ArrayList<String>();
        try (Stream<Path> files = Files.list(source)) {
            for (var file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
                resources.add(file.getFileName().toString());
            }
        }
        Files.writeString(copy.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                + "kind: Kustomization\nresources:\n" + String.join("", resources.stream().map(r -> "  - " + r + "\n").toList()));
        return copy;
    }

    @Test
    void everyOverlayRendersAndMatchesTheKubernetesAndFluxSchemas() throws IOException {
        var files = new ArrayList<Path>();
        var rendered = renderAll();
        assertThat(rendered.keySet()).contains(
                "flux/clusters/staging", "flux/clusters/production",
                "flux/infrastructure/controllers",
                "flux/infrastructure/instances/base", "flux/infrastructure/instances/staging",
                "flux/infrastructure/instances/production",
                "flux/apps/base/profile-store", "flux/apps/staging", "flux/apps/production");
        for (var e : rendered.entrySet()) {
            assertThat(e.getValue()).as("%s renders documents", e.getKey()).isNotEmpty();
            var file = temp.resolve(e.getKey().replace('/', '_') + ".yaml");
            Files.writeString(file, join(e.getValue()));
            files.add(file);
        }
        var report = Tools.validate(files);
        assertThat(report.exitCode()).as("schema validation:%n%s", report.output()).isZero();
        // only the operators' own resources go without a schema, and only them
        assertThat(report.output().lines().filter(l -> l.startsWith("SKIPPED")))
                .allMatch(l -> l.matches("SKIPPED (k8ssandra.io/v1alpha1 K8ssandraCluster|elasticsearch.k8s.elastic.co/v1 "
                        + "Elasticsearch|rabbitmq.com/v1beta1 RabbitmqCluster|postgresql.cnpg.io/v1 (Cluster|ScheduledBackup)|"
                        + "medusa.k8ssandra.io/v1alpha1 MedusaBackupSchedule|cert-manager.io/v1 (Issuer|Certificate)) .*"));
        assertThat(report.output())
                .contains("VALID   helm.toolkit.fluxcd.io/v2 HelmRelease profile-store/profile-store")
                .contains("VALID   kustomize.toolkit.fluxcd.io/v1 Kustomization flux-system/apps")
                .contains("VALID   source.toolkit.fluxcd.io/v1 HelmRepository")
                .contains("VALID   networking.k8s.io/v1 NetworkPolicy profile-store/postgres")
                .contains("SKIPPED postgresql.cnpg.io/v1 ScheduledBackup profile-store/profiles-pg-daily")
                .contains("SKIPPED medusa.k8ssandra.io/v1alpha1 MedusaBackupSchedule profile-store/profiles-dc1-daily");
    }

    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void clustersInstallControllersThenInstancesThenTheApp(String env) throws IOException {
        var docs = Charts.parse(Tools.kustomize(clusterAsFluxSeesIt(env)));
        var controllers = Charts.named(docs, "Kustomization", "infra-controllers");
        var instances = Charts.named(docs, "Kustomization", "infra-instances");
        var apps = Charts.named(docs, "Kustomization", "apps");
        assertThat(controllers.path("spec").path("dependsOn").isMissingNode()).isTrue();
        assertThat(dependsOn(instances)).containsExactly("infra-controllers");
        assertThat(dependsOn(apps)).containsExactly("infra-instances");
        assertThat(path(controllers)).isEqualTo("flux/infrastructure/controllers");
        assertThat(path(instances)).isEqualTo("flux/infrastructure/instances/" + env);
        assertThat(path(apps)).isEqualTo("flux/apps/" + env);
        for (var k : List.of(controllers, instances, apps)) {
            assertThat(Charts.PROJECT.resolve(path(k)).resolve("kustomization.yaml")).exists();
            assertThat(k.path("spec").path("wait").asBoolean()).as("%s waits for readiness", name(k)).isTrue();
            assertThat(k.path("spec").path("sourceRef").path("name").asText()).isEqualTo("flux-system");
        }
        // the operators' resources are ready when their operators say so, not when applied
        assertThat(instances.path("spec").path("healthCheckExprs").findValuesAsText("kind"))
                .contains("K8ssandraCluster", "Elasticsearch", "RabbitmqCluster");
    }

    @Test
    void productionHasTheDesignsShapeAndStagingOneNodeOfEach() throws IOException {
        var production = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/instances/production")));
        var cassandra = Charts.named(production, "K8ssandraCluster", "profiles").path("spec").path("cassandra");
        assertThat(cassandra.path("datacenters")).hasSize(1);
        assertThat(cassandra.path("datacenters").get(0).path("metadata").path("name").asText()).isEqualTo("dc1");
        assertThat(cassandra.path("datacenters").get(0).path("size").asInt()).isEqualTo(3);
        assertThat(cassandra.path("softPodAntiAffinity").isBoolean()).isTrue();
        assertThat(cassandra.path("softPodAntiAffinity").asBoolean()).as("one Cassandra pod per node").isFalse();
        assertThat(cassandra.path("config").path("cassandraYaml").path("batch_size_fail_threshold").asText()).isEqualTo("16MiB");

        var es = Charts.named(production, "Elasticsearch", "profiles").path("spec");
        assertThat(es.path("nodeSets")).hasSize(1);
        var nodeSet = es.path("nodeSets").get(0);
        assertThat(nodeSet.path("count").asInt()).isEqualTo(3);
        assertThat(nodeSet.path("config").path("node.roles")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("master", "data");
        assertThat(es.path("version").asText()).startsWith("9.");
        assertThat(nodeSet.path("podTemplate").path("spec").path("affinity").path("podAntiAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution")).isNotEmpty();

        assertThat(Charts.named(production, "RabbitmqCluster", "profiles-mq").path("spec").path("replicas").asInt()).isEqualTo(3);
        var pg = Charts.named(production, "Cluster", "profiles-pg").path("spec");
        assertThat(pg.path("instances").asInt()).isEqualTo(3);
        assertThat(pg.path("affinity").path("podAntiAffinityType").asText()).isEqualTo("required");

        var staging = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/instances/staging")));
        assertThat(Charts.named(staging, "K8ssandraCluster", "profiles").findValue("size").asInt()).isEqualTo(1);
        var stagingEs = Charts.named(staging, "Elasticsearch", "profiles").path("spec").path("nodeSets").get(0);
        assertThat(stagingEs.path("count").asInt()).isEqualTo(1);
        assertThat(stagingEs.path("config").path("node.roles")).as("the patch keeps the node set's config").hasSize(2);
        assertThat(Charts.named(staging, "RabbitmqCluster", "profiles-mq").path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(Charts.named(staging, "Cluster", "profiles-pg").path("spec").path("instances").asInt()).isEqualTo(1);
    }

    @Test
    void everyChartAndSourceIsPinned() throws IOException {
        var docs = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/controllers")));
        var releases = Charts.ofKind(docs, "HelmRelease");
        assertThat(releases).extracting(Flux::name).containsExactlyInAnyOrder(
                "cert-manager", "prometheus-operator-crds", "k8ssandra-operator", "eck-operator", "cloudnative-pg");
        for (var release : releases) {
            assertThat(release.path("spec").path("chart").path("spec").path("version").asText())
                    .as("%s chart version", name(release)).matches("v?\\d+\\.\\d+\\.\\d+");
        }
        for (var git : Charts.ofKind(docs, "GitRepository")) {
            assertThat(git.path("spec").path("ref").path("tag").asText()).as("%s tag", name(git)).matches("v\\d+\\.\\d+\\.\\d+");
        }
        for (var kustomization : Charts.ofKind(docs, "Kustomization")) {
            kustomization.path("spec").path("images").forEach(image ->
                    assertThat(image.path("newTag").asText()).matches("\\d+\\.\\d+\\.\\d+"));
        }
        // k8ssandra-operator's webhooks need cert-manager's certificates first
        assertThat(dependsOn(Charts.named(docs, "HelmRelease", "k8ssandra-operator"))).containsExactly("cert-manager");
        // images of the instances are pinned too, by version and digest (ImageDigestTest reads every reference)
        for (var env : List.of("staging", "production")) {
            var instances = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/instances/" + env)));
            assertThat(Charts.ofKind(instances, "RabbitmqCluster").get(0).path("spec").path("image").asText())
                    .matches(".+:\\d+\\.\\d+\\.\\d+[^@]*@sha256:[0-9a-f]{64}");
            assertThat(Charts.ofKind(instances, "Cluster").get(0).path("spec").path("imageName").asText())
                    .matches(".+:\\d+\\.\\d+[^@]*@sha256:[0-9a-f]{64}");
            assertThat(Charts.ofKind(instances, "K8ssandraCluster").get(0).path("spec").path("cassandra").path("serverVersion").asText())
                    .matches("\\d+\\.\\d+\\.\\d+");
        }
    }

    @Test
    void yamllintIsClean() {
        var result = Tools.yamllint(List.of("--strict", "--config-file", ".yamllint",
                "helm/profile-store/Chart.yaml", "helm/profile-store/values.yaml",
                "helm/profile-store/values-staging.yaml", "helm/profile-store/values-production.yaml", "flux"));
        assertThat(result.exitCode()).as("yamllint:%n%s", result.output()).isZero();
    }

    private static String join(List<JsonNode> docs) throws IOException {
        var text = new StringBuilder();
        for (var doc : docs) {
            text.append("---\n").append(Charts.YAML.writeValueAsString(doc).replaceFirst("^---\\s*\n", ""));
        }
        return text.toString();
    }

    private static List<String> dependsOn(JsonNode doc) {
        var names = new ArrayList<String>();
        doc.path("spec").path("dependsOn").forEach(d -> names.add(d.path("name").asText()));
        return names;
    }

    private static String path(JsonNode kustomization) {
        return kustomization.path("spec").path("path").asText().replaceFirst("^\\./", "");
    }
}
