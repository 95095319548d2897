package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * helm lint --strict and helm template of helm/profile-store with each value set: what the chart renders is what
 * the deployment needs (two Deployments, Services, the configuration, autoscaling, disruption budgets, metrics,
 * network policy, the migrate hook, the maintenance CronJobs), probes on the admin port, pinned images, no Secret.
 */
class ChartTest {

    @ParameterizedTest
    @EnumSource(Values.class)
    void lintsStrictly(Values values) throws IOException {
        var result = Charts.lint(values);
        assertThat(result.isFailed()).as("helm lint --strict with %s values: %s", values, result.getMessages()).isFalse();
        assertThat(result.getMessages()).as("lint messages").noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]"));
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void rendersEveryPartOfTheDeployment(Values values) {
        var docs = Charts.documents(values);
        var deployments = Charts.ofKind(docs, "Deployment");
        assertThat(deployments).extracting(d -> d.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("profile-store-api", "profile-store-indexer");
        assertThat(Charts.ofKind(docs, "Service")).extracting(d -> d.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("profile-store", "profile-store-admin");
        assertThat(Charts.ofKind(docs, "ConfigMap")).extracting(d -> d.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("profile-store", "profile-store-indexer", "profile-store-migrate",
                        "profile-store-cronjobs", "profile-store-dashboard");
        assertThat(Charts.ofKind(docs, "CronJob")).extracting(d -> d.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("profile-store-reconcile", "profile-store-check-tables");
        assertThat(Charts.ofKind(docs, "HorizontalPodAutoscaler")).hasSize(1);
        assertThat(Charts.ofKind(docs, "PodDisruptionBudget")).hasSize(2);
        assertThat(Charts.ofKind(docs, "NetworkPolicy")).hasSize(1);
        assertThat(Charts.ofKind(docs, "ServiceAccount")).hasSize(1);
        assertThat(Charts.ofKind(docs, "Pod")).as("the helm test pod").hasSize(1);
        // the ServiceMonitor and the alerts need the prometheus-operator CRDs: off by default, on in both environments
        assertThat(Charts.ofKind(docs, "ServiceMonitor")).hasSize(values == Values.DEFAULT ? 0 : 1);
        assertThat(Charts.ofKind(docs, "PrometheusRule")).hasSize(values == Values.DEFAULT ? 0 : 1);
        // secrets are referenced, never rendered
        assertThat(Charts.ofKind(docs, "Secret")).isEmpty();
    }

    @Test
    void serviceMonitorScrapesPrometheusOnTheAdminPort() {
        var docs = Charts.parse(Charts.template(Values.DEFAULT, Map.of("metrics.serviceMonitor.enabled", true)));
        var monitor = Charts.named(docs, "ServiceMonitor", "profile-store");
        var endpoint = monitor.path("spec").path("endpoints").get(0);
        assertThat(endpoint.path("port").asText()).isEqualTo("admin");
        assertThat(endpoint.path("path").asText()).isEqualTo("/prometheus");
        // it selects the admin Service, which selects the API and indexer pods on their admin port
        var admin = Charts.named(docs, "Service", "profile-store-admin");
        monitor.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(label ->
                assertThat(admin.path("metadata").path("labels").path(label.getKey()).asText())
                        .as("admin Service label %s", label.getKey()).isEqualTo(label.getValue().asText()));
        assertThat(admin.path("spec").path("ports").get(0).path("port").asInt()).isEqualTo(8081);
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void migrationIsAPreInstallAndPreUpgradeHook(Values values) {
        var docs = Charts.documents(values);
        var job = Charts.named(docs, "Job", "profile-store-migrate");
        assertThat(job.path("metadata").path("annotations").path("helm.sh/hook").asText())
                .isEqualTo("pre-install,pre-upgrade");
        var container = job.path("spec").path("template").path("spec").path("containers").get(0);
        assertThat(args(container)).endsWith("-cp", "@/app/jib-classpath-file",
                "io.profilestore.ProfileStoreApplication", "migrate", "/config/profile-store.yml");
        // hooks run before the release's objects exist: the Job's configuration is a hook too, created first
        var config = Charts.named(docs, "ConfigMap", "profile-store-migrate");
        assertThat(config.path("metadata").path("annotations").path("helm.sh/hook").asText())
                .isEqualTo("pre-install,pre-upgrade");
        assertThat(config.path("metadata").path("annotations").path("helm.sh/hook-weight").asInt())
                .isLessThan(job.path("metadata").path("annotations").path("helm.sh/hook-weight").asInt());
        // the service's configuration, with a PostgreSQL pool of its own (ChartConnectionBudgetIT) and the
        // migration logins (ChartLeastPrivilegeTest)
        assertThat(withoutPoolSize(withoutMigrationLogins(config.path("data").path("profile-store.yml").asText())))
                .isEqualTo(withoutPoolSize(Charts.serviceConfig(docs)));
        assertThat(job.path("spec").path("template").path("spec").path("volumes").findValuesAsText("name"))
                .contains("profile-store-migrate");
    }

    /**
     * The collector is named, not left to the JVM's ergonomics: in a container of less than 1792 MiB (the API's
     * 1 GiB, the indexer's 768 MiB) JDK 17 picks the serial collector, one thread stopping the service for every
     * collection, where the benchmark measures G1 (bench/run).
     */
    @ParameterizedTest
    @EnumSource(Values.class)
    void apiAndIndexerRunWithTheCollectorTheBenchmarkMeasures(Values values) {
        var docs = Charts.documents(values);
        for (var component : List.of("api", "indexer")) {
            var container = Charts.named(docs, "Deployment", "profile-store-" + component)
                    .path("spec").path("template").path("spec").path("containers").get(0);
            assertThat(args(container)).as(component).contains("-XX:+UseG1GC")
                    .noneMatch(a -> a.matches("-XX:\\+Use(Serial|Parallel|Z|Shenandoah)GC"));
        }
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void apiAndIndexerRunTheirCommandsWithProbesOnTheAdminPort(Values values) {
        var docs = Charts.documents(values);
        for (var component : List.of("api", "indexer")) {
            var deployment = Charts.named(docs, "Deployment", "profile-store-" + component);
            var pod = deployment.path("spec").path("template").path("spec");
            var container = pod.path("containers").get(0);
            assertThat(args(container)).endsWith("-cp", "@/app/jib-classpath-file",
                    "io.profilestore.ProfileStoreApplication", component.equals("api") ? "server" : "indexer",
                    "/config/profile-store.yml");
            var admin = StreamSupport.stream(container.path("ports").spliterator(), false)
                    .filter(p -> p.path("name").asText().equals("admin")).findFirst().orElseThrow();
            assertThat(admin.path("containerPort").asInt()).isEqualTo(8081);
            assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/ready");
            for (var probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(container.path(probe).path("httpGet").path("port").asText())
                        .as("%s %s port", component, probe).isEqualTo("admin");
            }
            // a backing service down must not restart the pods: liveness asks only whether the process answers
            assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/ping");
            assertThat(container.path("resources").path("requests").path("memory").isMissingNode()).isFalse();
            assertThat(container.path("resources").path("limits").path("memory").isMissingNode()).isFalse();
            assertThat(container.path("securityContext").path("readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(pod.path("topologySpreadConstraints")).isNotEmpty();
            // the pods roll when the configuration changes
            assertThat(deployment.path("spec").path("template").path("metadata").path("annotations")
                    .path("checksum/config").asText()).hasSize(64);
        }
        // the indexer reads a ConfigMap of its own, the API's but for its PostgreSQL pool
        var indexerPod = Charts.named(docs, "Deployment", "profile-store-indexer").path("spec").path("template").path("spec");
        assertThat(indexerPod.path("volumes").findValuesAsText("name")).contains("profile-store-indexer");
        assertThat(withoutPoolSize(Charts.named(docs, "ConfigMap", "profile-store-indexer").path("data")
                .path("profile-store.yml").asText())).isEqualTo(withoutPoolSize(Charts.serviceConfig(docs)));
        var api = Charts.named(docs, "Deployment", "profile-store-api");
        assertThat(api.path("spec").path("template").path("spec").path("volumes").findValuesAsText("name"))
                .contains("profile-store").doesNotContain("profile-store-indexer");
        assertThat(api.path("spec").path("replicas").isMissingNode())
                .as("the HorizontalPodAutoscaler owns the API's replicas").isTrue();
        var hpa = Charts.ofKind(docs, "HorizontalPodAutoscaler").get(0);
        assertThat(hpa.path("spec").path("scaleTargetRef").path("name").asText()).isEqualTo("profile-store-api");
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void imagesArePinnedByValues(Values values) {
        var docs = Charts.documents(values);
        var images = new ArrayList<String>();
        for (var doc : docs) {
            images.addAll(doc.findValuesAsText("image"));
        }
        assertThat(images).isNotEmpty().allSatisfy(image -> {
            assertThat(image).doesNotEndWith(":latest").containsPattern(":[^/]+$|@sha256:");
        });
        assertThat(images).contains("ghcr.io/profile-store/profile-store:0.1.0");
        var digest = "sha256:" + "a".repeat(64);
        var pinned = Charts.parse(Charts.template(values, Map.of("image.digest", digest)));
        assertThat(Charts.named(pinned, "Deployment", "profile-store-api").findValuesAsText("image"))
                .containsOnly("ghcr.io/profile-store/profile-store@" + digest);
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void secretsAreMountedFromExistingSecretsAndReadAsFiles(Values values) {
        var docs = Charts.documents(values);
        var pod = Charts.named(docs, "Deployment", "profile-store-api").path("spec").path("template").path("spec");
        var secretNames = pod.path("volumes").findValues("secret").stream().map(s -> s.path("name").asText()).toList();
        assertThat(secretNames).contains("profile-store-postgres", "profile-store-rabbitmq");
        var config = Charts.serviceConfig(docs);
        assertThat(config)
                .contains("${file:/var/run/secrets/profile-store/postgres/password}")
                .contains("${file:/var/run/secrets/profile-store/rabbitmq/uri}");
        assertThat(pod.path("containers").get(0).path("env").isMissingNode()).as("no secret in the environment").isTrue();
    }

    /** Every pod of the service mounts each backend's CA from the Secret the values name, where its tls.caFile says. */
    @ParameterizedTest
    @EnumSource(Values.class)
    void eachBackendsCaIsMountedWhereItsTlsSettingsReadIt(Values values) throws IOException {
        var docs = Charts.documents(values);
        var config = Charts.values(values).path("config");
        var pods = ChartLeastPrivilegeTest.pods(docs);
        pods.keySet().removeIf(k -> k.startsWith("Pod/"));
        assertThat(pods).hasSize(5);
        for (var map : Charts.serviceConfigMaps(docs)) {
            var serviceConfig = Charts.YAML.readTree(map.path("data").path("profile-store.yml").asText());
            for (var backend : List.of("cassandra", "elasticsearch", "postgres", "rabbitmq")) {
                assertThat(serviceConfig.path(backend).path("tls").path("caFile").asText())
                        .isEqualTo("/var/run/secrets/profile-store/" + backend + "-ca/ca.crt");
            }
        }
        for (var e : pods.entrySet()) {
            var sources = e.getValue().path("volumes").findValue("projected").path("sources");
            for (var backend : List.of("cassandra", "elasticsearch", "postgres", "rabbitmq")) {
                var ca = config.path(backend).path("tls").path("ca");
                assertThat(sources).as("%s mounts %s's CA", e.getKey(), backend).anySatisfy(source -> {
                    assertThat(source.path("secret").path("name").asText()).isEqualTo(ca.path("secretName").asText());
                    assertThat(source.path("secret").path("items")).hasSize(1);
                    assertThat(source.path("secret").path("items").get(0).path("key").asText()).isEqualTo(ca.path("key").asText());
                    assertThat(source.path("secret").path("items").get(0).path("path").asText()).isEqualTo(backend + "-ca/ca.crt");
                });
            }
        }
    }

    @Test
    void valuesSchemaRefusesWhatTheServiceCouldNotRun() {
        for (var bad : List.of(
                Map.<String, Object>of("image.tag", "latest"),
                Map.<String, Object>of("image.tag", ""),
                Map.<String, Object>of("config.cassandra.replication.strategy", "EverywhereStrategy"),
                Map.<String, Object>of("config.cassandra.replication.factor", 0),
                Map.<String, Object>of("config.elasticsearch.index.shards", 0),
                Map.<String, Object>of("config.profiles.lockLease", "five seconds"),
                Map.<String, Object>of("config.indexer.relayLinger", "2s"),
                Map.<String, Object>of("config.indexer.relayLinger", "1500ms"),
                Map.<String, Object>of("config.postgres.url", "postgres://pg/profiles"),
                Map.<String, Object>of("secrets.postgres.name", ""),
                Map.<String, Object>of("config.auth.jwt.jwksUrl", "https://idp.example/jwks"),
                Map.<String, Object>of("api.autoscaling.minReplicas", 0),
                Map.<String, Object>of("api.pdb.minAvailable", 1),
                Map.<String, Object>of("apiTypo.replicas", 3))) {
            Assertions.assertThatThrownBy(() -> Charts.template(Values.DEFAULT, bad))
                    .as("values %s", bad).hasMessageContaining("values don't meet the specifications of the schema");
        }
    }

    /** The migrate Job's configuration without what only it has: the migration logins and their comment. */
    static String withoutMigrationLogins(String migrateConfig) {
        assertThat(migrateConfig).contains("migrationPassword:");
        return migrateConfig.replaceAll("(?m)^ *# migrate only:.*\\n", "")
                .replaceAll("(?m)^ *migration(User|Username|Password): \\|-\\n *\\$\\{file:[^}]*}\\n", "");
    }

    static String withoutPoolSize(String serviceConfig) {
        assertThat(serviceConfig).containsOnlyOnce("maxPoolSize:");
        return serviceConfig.replaceFirst("maxPoolSize: \\d+", "maxPoolSize: N");
    }

    private static List<String> args(JsonNode container) {
        var args = new ArrayList<String>();
        container.path("args").forEach(a -> args.add(a.asText()));
        return args;
    }
}
