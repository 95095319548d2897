package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.deploy.NetworkPolicies.Pod;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * flux/: every overlay renders with `kubectl kustomize` and every document is valid against the Kubernetes and
 * Flux schemas; the clusters install in order (controllers, then instances, then the app); production has the
 * design's shape; the app's values name the services and Secrets the instances create; charts are pinned;
 * yamllint is clean.
 */
class FluxIT {

    static final Path FLUX = Charts.PROJECT.resolve("flux");
    private static final long MIB = 1024 * 1024;

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
        try (Stream<Path> files = Files.walk(FLUX)) {
            return files.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
                    .map(Path::getParent).sorted().toList();
        }
    }

    /**
     * A cluster's folder has no kustomization.yaml (flux bootstrap adds flux-system/ beside its files), so Flux
     * generates one with every manifest of the folder; the same is generated here in a copy.
     */
    private Path clusterAsFluxSeesIt(String env) throws IOException {
        var source = FLUX.resolve("clusters").resolve(env);
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
        var production = Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/instances/production")));
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

        var staging = Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/instances/staging")));
        assertThat(Charts.named(staging, "K8ssandraCluster", "profiles").findValue("size").asInt()).isEqualTo(1);
        var stagingEs = Charts.named(staging, "Elasticsearch", "profiles").path("spec").path("nodeSets").get(0);
        assertThat(stagingEs.path("count").asInt()).isEqualTo(1);
        assertThat(stagingEs.path("config").path("node.roles")).as("the patch keeps the node set's config").hasSize(2);
        assertThat(Charts.named(staging, "RabbitmqCluster", "profiles-mq").path("spec").path("replicas").asInt()).isEqualTo(1);
        assertThat(Charts.named(staging, "Cluster", "profiles-pg").path("spec").path("instances").asInt()).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void theAppUsesTheChartsValuesFilesAndReachesTheInstances(String env) throws IOException {
        var release = Charts.named(Charts.parse(Tools.kustomize(FLUX.resolve("apps/" + env))), "HelmRelease", "profile-store");
        var chart = release.path("spec").path("chart").path("spec");
        assertThat(chart.path("sourceRef").path("kind").asText()).isEqualTo("GitRepository");
        assertThat(chart.path("sourceRef").path("name").asText()).isEqualTo("flux-system");
        assertThat(Charts.PROJECT.resolve(chart.path("chart").asText()).resolve("Chart.yaml")).exists();
        // the very files the chart's tests lint, render and load with the service's code
        var valuesFiles = new ArrayList<String>();
        chart.path("valuesFiles").forEach(f -> valuesFiles.add(f.asText()));
        var environment = env.equals("production") ? Values.PRODUCTION : Values.STAGING;
        assertThat(valuesFiles).containsExactly("./helm/profile-store/values.yaml", "./helm/profile-store/" + environment.file);
        valuesFiles.forEach(f -> assertThat(Charts.PROJECT.resolve(f)).exists());

        // the values name what the instances create: services, data center, the operators' Secrets
        var values = Charts.values(environment);
        var instances = Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/instances/" + env)));
        var namespace = release.path("metadata").path("namespace").asText();
        var k8ssandra = Charts.ofKind(instances, "K8ssandraCluster").get(0);
        var dc = k8ssandra.path("spec").path("cassandra").path("datacenters").get(0);
        var es = Charts.ofKind(instances, "Elasticsearch").get(0);
        var pg = Charts.ofKind(instances, "Cluster").get(0);
        var mq = Charts.ofKind(instances, "RabbitmqCluster").get(0);
        for (var instance : List.of(k8ssandra, es, pg, mq)) {
            assertThat(instance.path("metadata").path("namespace").asText()).as("Secrets are mounted in-namespace").isEqualTo(namespace);
        }
        var config = values.path("config");
        assertThat(config.path("cassandra").path("localDatacenter").asText()).isEqualTo(dc.path("metadata").path("name").asText());
        assertThat(config.path("cassandra").path("contactPoints").get(0).asText())
                .isEqualTo(name(k8ssandra) + "-" + dc.path("metadata").path("name").asText() + "-service:9042");
        assertThat(config.path("cassandra").path("replication").path("factor").asInt()).isEqualTo(dc.path("size").asInt());
        assertThat(config.path("elasticsearch").path("hosts").get(0).asText()).isEqualTo("https://" + name(es) + "-es-http:9200");
        assertThat(config.path("elasticsearch").path("index").path("replicas").asInt())
                .as("replicas fit on the nodes").isLessThan(es.path("spec").path("nodeSets").get(0).path("count").asInt());
        assertThat(config.path("postgres").path("url").asText()).isEqualTo("jdbc:postgresql://" + name(pg) + "-rw:5432/"
                + pg.path("spec").path("bootstrap").path("initdb").path("database").asText());
        var secrets = values.path("secrets");
        // PostgreSQL: the service logs in as a role of its own, which owns nothing; migrate alone as the tables'
        // owner (CloudNativePG's initdb owner, whose login is in <cluster>-app), which grants it what it needs
        var owner = pg.path("spec").path("bootstrap").path("initdb").path("owner").asText();
        var user = config.path("postgres").path("user").asText();
        assertThat(user).isNotEqualTo(owner);
        var roles = new ArrayList<JsonNode>();
        pg.path("spec").path("managed").path("roles").forEach(roles::add);
        assertThat(roles).extracting(r -> r.path("name").asText()).containsExactly(user);
        var role = roles.get(0);
        assertThat(role.path("login").asBoolean()).isTrue();
        for (var privilege : List.of("superuser", "createdb", "createrole", "replication", "bypassrls")) {
            assertThat(role.path(privilege).asBoolean(false)).as("the service's role has no %s", privilege).isFalse();
        }
        assertThat(role.path("inRoles")).as("nor the owner's privileges through membership").isEmpty();
        assertThat(role.path("passwordSecret").path("name").asText()).isEqualTo(secrets.path("postgres").path("name").asText());
        assertThat(secrets.path("postgres").path("key").asText()).isEqualTo("password");
        assertThat(secrets.path("postgresMigration").path("name").asText()).isEqualTo(name(pg) + "-app");
        // Cassandra: the service's own role (migrate makes it); the superuser's Secret for migrate alone
        assertThat(secrets.path("cassandra").path("name").asText()).isNotEqualTo(name(k8ssandra) + "-superuser");
        assertThat(secrets.path("cassandraMigration").path("name").asText()).isEqualTo(name(k8ssandra) + "-superuser");
        // TLS to each, checked against the CA of the certificate the instance serves: cert-manager's Secrets for
        // Cassandra, Elasticsearch and RabbitMQ (their ca.crt), CloudNativePG's own CA
        var cas = Map.of(
                "cassandra", k8ssandra.path("spec").path("cassandra").path("clientEncryptionStores").path("truststoreSecretRef").path("name").asText(),
                "elasticsearch", es.path("spec").path("http").path("tls").path("certificate").path("secretName").asText(),
                "postgres", name(pg) + "-ca",
                "rabbitmq", mq.path("spec").path("tls").path("secretName").asText());
        cas.forEach((backend, secret) -> {
            var tls = config.path(backend).path("tls");
            assertThat(tls.path("enabled").asBoolean()).as("%s tls.enabled", backend).isTrue();
            assertThat(tls.path("ca").path("secretName").asText()).as("%s CA", backend).isNotEmpty().isEqualTo(secret);
            assertThat(tls.path("ca").path("key").asText()).as("%s CA key", backend).isEqualTo("ca.crt");
        });
        assertThat(config.path("cassandra").path("tls").path("verifyHostname").asBoolean())
                .as("Cassandra's nodes are reached by pod IP: its CA alone is checked, a CA of its own").isFalse();
        for (var backend : List.of("elasticsearch", "postgres", "rabbitmq")) {
            assertThat(config.path(backend).path("tls").path("verifyHostname").asBoolean()).as("%s checks the name", backend).isTrue();
        }
        // the API's TLS: its certificate's issuer is the CA the instances make, its key store's password generated
        var tlsValues = values.path("tls");
        assertThat(tlsValues.path("enabled").asBoolean()).isTrue();
        var issuer = Charts.named(instances, "Issuer", tlsValues.path("certificate").path("issuerRef").path("name").asText());
        assertThat(issuer.path("spec").path("ca").path("secretName").asText()).isNotEmpty();
        assertThat(Charts.named(instances, "HelmRelease", "generated-secrets").path("spec").path("values").path("secrets")
                .findValuesAsText("name")).contains(tlsValues.path("keystorePassword").path("name").asText());
        // Elasticsearch: the user ECK makes from the Secret the app reads, not the elastic superuser
        assertThat(secrets.path("elasticsearch").path("name").asText()).isNotEqualTo(name(es) + "-es-elastic-user")
                .isIn(es.path("spec").path("auth").path("fileRealm").findValuesAsText("secretName"));
        assertThat(secrets.path("elasticsearch").path("usernameKey").asText()).isEqualTo("username");
        assertThat(secrets.path("elasticsearch").path("passwordKey").asText()).isEqualTo("password");
    }

    /**
     * The service's Elasticsearch role (ECK's spec.auth.roles) reaches its own indices and aliases only: the alias
     * of the values and the names made of it (profiles-v1, profiles-next), with what migrate, the API, the indexer and
     * reindex do there, and cluster monitoring for the health check.
     */
    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void theServicesElasticsearchRoleIsLimitedToItsIndices(String env) throws IOException {
        var docs = instances(env);
        var es = Charts.ofKind(docs, "Elasticsearch").get(0);
        var roleSecrets = es.path("spec").path("auth").path("roles").findValuesAsText("secretName");
        assertThat(roleSecrets).hasSize(1);
        var rolesFile = Charts.named(docs, "Secret", roleSecrets.get(0)).path("stringData").path("roles.yml").asText();
        var roles = Charts.YAML.readTree(rolesFile);
        assertThat(roles.size()).as("one role: the service's").isEqualTo(1);
        var role = roles.path("profile_store");
        assertThat(role.isObject()).isTrue();
        var alias = Charts.values(env.equals("production") ? Values.PRODUCTION : Values.STAGING)
                .path("config").path("elasticsearch").path("indexAlias").asText();
        assertThat(role.path("cluster")).extracting(JsonNode::asText).containsExactly("monitor");
        assertThat(role.path("indices")).hasSize(1);
        var indices = role.path("indices").get(0);
        assertThat(indices.path("names")).extracting(JsonNode::asText).containsExactlyInAnyOrder(alias, alias + "-*");
        // exactly what the service does there: read (search, multi-get), write (bulk), create_index (migrate's index,
        // reindex's generations) and manage (aliases, mapping, refresh, deleting an old generation); one missing
        // fails a command at run time, one more is more than it needs
        assertThat(indices.path("privileges")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("read", "write", "create_index", "manage");
        assertThat(indices.has("query")).as("no document-level restriction to keep in step").isFalse();
        for (var field : List.of("run_as", "applications", "remote_indices", "global")) {
            assertThat(role.has(field)).as("the role has no %s", field).isFalse();
        }
    }

    @Test
    void everyChartAndSourceIsPinned() throws IOException {
        var docs = Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/controllers")));
        var releases = Charts.ofKind(docs, "HelmRelease");
        assertThat(releases).extracting(FluxIT::name).containsExactlyInAnyOrder(
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
        // images of the instances are pinned too
        for (var env : List.of("staging", "production")) {
            var instances = Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/instances/" + env)));
            assertThat(Charts.ofKind(instances, "RabbitmqCluster").get(0).path("spec").path("image").asText()).matches(".+:\\d+\\.\\d+\\.\\d+.*");
            assertThat(Charts.ofKind(instances, "Cluster").get(0).path("spec").path("imageName").asText()).matches(".+:\\d+\\.\\d+");
            assertThat(Charts.ofKind(instances, "K8ssandraCluster").get(0).path("spec").path("cassandra").path("serverVersion").asText())
                    .matches("\\d+\\.\\d+\\.\\d+");
        }
    }

    @Test
    void productionPostgresWaitsForASynchronousStandbyAndStagingHasNone() throws IOException {
        // the file someone else's test reads the connection budget from: exactly this path, a string
        var file = Charts.named(Charts.parse(Files.readString(FLUX.resolve("infrastructure/instances/base/postgres.yaml"))),
                "Cluster", "profiles-pg");
        assertThat(file.path("spec").path("postgresql").path("parameters").path("max_connections").textValue()).isEqualTo("200");

        var production = Charts.named(instances("production"), "Cluster", "profiles-pg");
        var spec = production.path("spec");
        var synchronous = spec.path("postgresql").path("synchronous");
        int instances = spec.path("instances").asInt();
        assertThat(synchronous.path("method").asText()).isIn("any", "first");
        // at least one standby confirms each commit, and CloudNativePG refuses a number that is not below instances
        assertThat(synchronous.path("number").asInt()).isBetween(1, instances - 1);
        assertThat(synchronous.path("dataDurability").asText()).as("no fall back to asynchronous").isEqualTo("required");
        assertThat(spec.has("minSyncReplicas") || spec.has("maxSyncReplicas")).as("the legacy settings beside").isFalse();
        // promote only a replica that surely has every synchronous commit (needs 3 instances or more)
        assertThat(production.path("metadata").path("annotations").path("alpha.cnpg.io/failoverQuorum").asText()).isEqualTo("true");
        assertThat(instances).isGreaterThan(2);
        var parameters = spec.path("postgresql").path("parameters");
        assertThat(parameters.path("max_connections").asText()).isEqualTo("200");
        // room for the shared buffers and 200 backends of about 10 MiB each
        long memory = bytes(spec.path("resources").path("limits").path("memory").asText());
        long sharedBuffers = bytes(parameters.path("shared_buffers").asText());
        assertThat(memory).isGreaterThanOrEqualTo(sharedBuffers + 200 * MIB * 10);
        assertThat(sharedBuffers * 4).isLessThanOrEqualTo(memory);

        var staging = Charts.named(instances("staging"), "Cluster", "profiles-pg");
        assertThat(staging.path("spec").path("instances").asInt()).isEqualTo(1);
        assertThat(staging.path("spec").path("postgresql").has("synchronous")).as("one instance has no standby").isFalse();
        assertThat(staging.path("metadata").path("annotations").has("alpha.cnpg.io/failoverQuorum")).isFalse();
        assertThat(staging.path("spec").path("postgresql").path("parameters").path("max_connections").asText()).isEqualTo("200");
        long stagingMemory = bytes(staging.path("spec").path("resources").path("limits").path("memory").asText());
        assertThat(bytes(staging.path("spec").path("postgresql").path("parameters").path("shared_buffers").asText()) * 4)
                .isLessThanOrEqualTo(stagingMemory);
    }

    @Test
    void productionArchivesPostgresWalAndBacksItUpDaily() throws IOException {
        var docs = instances("production");
        var cluster = Charts.named(docs, "Cluster", "profiles-pg");
        var backup = cluster.path("spec").path("backup");
        assertThat(backup.path("retentionPolicy").asText()).matches("[1-9]\\d*[dwm]");
        var store = backup.path("barmanObjectStore");
        // the environment's own file decides where backups go
        var objectStore = productionObjectStore("Cluster").path("spec").path("backup").path("barmanObjectStore");
        assertThat(store.path("destinationPath").asText()).startsWith("s3://")
                .isEqualTo(objectStore.path("destinationPath").asText());
        var credentials = store.path("s3Credentials");
        assertThat(credentials.path("accessKeyId").path("name").asText()).isEqualTo("profiles-pg-backup-s3");
        assertThat(credentials.path("accessKeyId").path("key").asText()).isEqualTo("ACCESS_KEY_ID");
        assertThat(credentials.path("secretAccessKey").path("name").asText()).isEqualTo("profiles-pg-backup-s3");
        assertThat(credentials.path("secretAccessKey").path("key").asText()).isEqualTo("ACCESS_SECRET_KEY");
        assertThat(store.path("wal").path("compression").asText()).isNotEmpty();

        var scheduled = Charts.named(docs, "ScheduledBackup", "profiles-pg-daily").path("spec");
        assertThat(scheduled.path("cluster").path("name").asText()).isEqualTo(name(cluster));
        assertThat(scheduled.path("method").asText()).isEqualTo("barmanObjectStore");
        // six fields, seconds first: a fixed time of every day
        assertThat(scheduled.path("schedule").asText()).matches("\\d+ \\d+ \\d+ \\* \\* \\*");

        var staging = instances("staging");
        assertThat(Charts.named(staging, "Cluster", "profiles-pg").path("spec").has("backup")).isFalse();
        assertThat(Charts.ofKind(staging, "ScheduledBackup")).isEmpty();
    }

    @Test
    void cassandraIsRepairedWellWithinGcGraceAndBackedUpDaily() throws IOException {
        var k8ssandra = Charts.named(instances("production"), "K8ssandraCluster", "profiles").path("spec");
        var reaper = k8ssandra.path("reaper");
        var scheduling = reaper.path("autoScheduling");
        assertThat(scheduling.path("enabled").asBoolean()).isTrue();
        assertThat(scheduling.path("repairType").asText()).as("full repairs").isEqualTo("REGULAR");
        // auto-scheduling covers every keyspace but system ones and the excluded: the app's among them
        var keyspace = Charts.values(Values.PRODUCTION).path("config").path("cassandra").path("keyspace").asText();
        assertThat(keyspace).isEqualTo("profiles").doesNotStartWith("system");
        assertThat(scheduling.path("excludedKeyspaces")).extracting(JsonNode::asText).doesNotContain(keyspace);
        // two runs start in each gc_grace window, so one failed run still leaves every range repaired in time
        int daysBetween = Integer.parseInt(env(reaper, "REAPER_SCHEDULE_DAYS_BETWEEN"));
        assertThat(daysBetween).isPositive();
        assertThat(2L * daysBetween * 86_400).isLessThan(gcGraceSeconds());

        var medusa = k8ssandra.path("medusa").path("storageProperties");
        assertThat(medusa.path("storageProvider").asText()).isIn("s3", "s3_compatible", "s3_rgw", "google_storage", "azure_blobs");
        var objectStore = productionObjectStore("K8ssandraCluster").path("spec").path("medusa").path("storageProperties");
        assertThat(medusa.path("bucketName").asText()).isNotEmpty().isEqualTo(objectStore.path("bucketName").asText());
        assertThat(medusa.path("storageSecretRef").path("name").asText()).isEqualTo("profiles-medusa-s3");
        assertThat(medusa.path("secure").asBoolean()).as("TLS to the store").isTrue();
        assertThat(medusa.path("maxBackupCount").asInt()).isPositive();
        var schedule = Charts.named(instances("production"), "MedusaBackupSchedule", "profiles-dc1-daily").path("spec");
        assertThat(schedule.path("backupSpec").path("cassandraDatacenter").asText())
                .isEqualTo(k8ssandra.path("cassandra").path("datacenters").get(0).path("metadata").path("name").asText());
        assertThat(schedule.path("backupSpec").path("backupType").asText()).isIn("differential", "full");
        assertThat(schedule.path("cronSchedule").asText()).as("a fixed time of every day").matches("\\d+ \\d+ \\* \\* \\*");
        assertThat(schedule.path("disabled").asBoolean()).isFalse();

        var staging = instances("staging");
        var stagingSpec = Charts.named(staging, "K8ssandraCluster", "profiles").path("spec");
        assertThat(stagingSpec.path("reaper").path("autoScheduling").path("enabled").asBoolean()).isTrue();
        assertThat(stagingSpec.has("medusa")).isFalse();
        assertThat(Charts.ofKind(staging, "MedusaBackupSchedule")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void onlyTheAppPeersOperatorsAndMonitoringReachTheBackingServices(String env) throws IOException {
        var docs = instances(env);
        var policies = Charts.ofKind(docs, "NetworkPolicy");
        for (var policy : policies) {
            assertThat(policy.path("spec").path("policyTypes")).extracting(JsonNode::asText).contains("Ingress");
            policy.path("spec").path("ingress").forEach(rule ->
                    assertThat(NetworkPolicies.admitsAnyPod(rule)).as("%s admits any pod: %s", name(policy), rule).isFalse());
        }
        var namespace = Charts.ofKind(docs, "K8ssandraCluster").get(0).path("metadata").path("namespace").asText();
        var operators = operatorNamespaces();
        var monitoring = new Pod("monitoring", Map.of("app.kubernetes.io/name", "prometheus"));
        var stranger = new Pod(namespace, Map.of("app.kubernetes.io/name", "something-else"));

        // each service's pods, labelled as their operators label them
        var k8ssandra = name(Charts.ofKind(docs, "K8ssandraCluster").get(0));
        var cassandra = new Pod(namespace, Map.of("cassandra.datastax.com/cluster", k8ssandra,
                "cassandra.datastax.com/datacenter", "dc1", "app.kubernetes.io/name", "cassandra",
                "app.kubernetes.io/managed-by", "cass-operator"));
        var es = new Pod(namespace, Map.of("common.k8s.elastic.co/type", "elasticsearch",
                "elasticsearch.k8s.elastic.co/cluster-name", name(Charts.ofKind(docs, "Elasticsearch").get(0))));
        var mq = new Pod(namespace, Map.of("app.kubernetes.io/component", "rabbitmq",
                "app.kubernetes.io/name", name(Charts.ofKind(docs, "RabbitmqCluster").get(0))));
        var pg = new Pod(namespace, Map.of("cnpg.io/cluster", name(Charts.ofKind(docs, "Cluster").get(0)), "cnpg.io/podRole", "instance"));
        var reaper = new Pod(namespace, Map.of("app.kubernetes.io/component", "reaper", "k8ssandra.io/cluster-name", k8ssandra,
                "app.kubernetes.io/name", "k8ssandra-operator"));

        record Service(Pod pods, List<Integer> client, int peer, String operator, List<Integer> management, List<Integer> metrics) {
        }
        var services = List.of(
                new Service(cassandra, List.of(9042), 7000, operators.get("k8ssandra-operator"), List.of(8080, 50051), List.of(9000, 9103)),
                new Service(es, List.of(9200), 9300, operators.get("eck-operator"), List.of(9200), List.of()),
                // its installation's namespace (config/installation of the pinned tag), not a HelmRelease's
                // TLS only: AMQPS, the management API and Prometheus on their TLS ports
                new Service(mq, List.of(5671), 25672, "rabbitmq-system", List.of(15671), List.of(15691)),
                new Service(pg, List.of(5432), 5432, operators.get("cloudnative-pg"), List.of(8000, 5432), List.of(9187)));
        var values = Charts.values(env.equals("production") ? Values.PRODUCTION : Values.STAGING);
        var egress = values.path("networkPolicy").path("egress").path("ports");
        var app = appPods(env.equals("production") ? Values.PRODUCTION : Values.STAGING);
        assertThat(app).as("the app's API, indexer and migrate pods and the two CronJobs").hasSize(5);
        for (var service : services) {
            var pods = service.pods();
            assertThat(NetworkPolicies.selecting(policies, pods)).as("a policy selects %s", pods).isNotEmpty();
            assertThat(egress).extracting(JsonNode::asInt).as("the chart lets the app out to it").containsAll(service.client());
            for (var appPod : app) {
                assertThat(appPod.namespace()).isEqualTo(namespace);
                // the app on the client port, and on no management or peer port
                assertThat(NetworkPolicies.admitted(policies, pods, appPod)).as("%s from %s", pods, appPod)
                        .containsExactlyInAnyOrderElementsOf(service.client());
            }
            assertThat(NetworkPolicies.admitted(policies, pods, pods)).as("%s from its peers", pods).contains(service.peer());
            var operator = new Pod(service.operator(), Map.of("app.kubernetes.io/name", "operator"));
            assertThat(NetworkPolicies.admitted(policies, pods, operator)).as("%s from its operator", pods)
                    .containsExactlyInAnyOrderElementsOf(service.management());
            assertThat(NetworkPolicies.admitted(policies, pods, monitoring)).as("%s from monitoring", pods)
                    .containsExactlyInAnyOrderElementsOf(service.metrics());
            assertThat(NetworkPolicies.admitted(policies, pods, stranger)).as("%s from another pod", pods).isEmpty();
            assertThat(NetworkPolicies.admitted(policies, pods, new Pod("default", Map.of()))).as("%s from elsewhere", pods).isEmpty();
        }
        // Reaper repairs through the management API and keeps its state in Cassandra
        assertThat(NetworkPolicies.admitted(policies, cassandra, reaper)).containsExactlyInAnyOrder(9042, 8080);
    }

    /**
     * Each backing service serves TLS only, with a certificate the app can check: Cassandra's client encryption on
     * and not optional, with the key stores cert-manager makes; RabbitMQ's non-TLS listeners off, with
     * cert-manager's certificate for its Service's name; Elasticsearch's HTTPS with cert-manager's certificate for
     * the name the app connects to (not ECK's own CA, which ECK renews yearly); PostgreSQL refusing connections
     * without TLS. cert-manager's certificates come from a CA Issuer of their own each (a self-signed CA that signs
     * that one certificate), so that trusting one service's CA never means trusting another's certificate; the CAs
     * live ten years, so the leaves' renewals do not change what the app trusts.
     */
    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void everyBackingServiceServesTlsOnlyWithACertificateTheAppCanCheck(String env) throws IOException {
        var docs = instances(env);
        var leaves = new LinkedHashMap<String, JsonNode>();
        for (var certificate : Charts.ofKind(docs, "Certificate")) {
            var spec = certificate.path("spec");
            var issuer = Charts.named(docs, spec.path("issuerRef").path("kind").asText("Issuer"), spec.path("issuerRef").path("name").asText());
            if (spec.path("isCA").asBoolean()) {
                assertThat(issuer.path("spec").has("selfSigned")).as("%s is a root", name(certificate)).isTrue();
                assertThat(hours(spec.path("duration").asText())).as("%s lives ten years", name(certificate)).isGreaterThanOrEqualTo(87_600);
                continue;
            }
            // a CA Issuer whose CA is a Certificate here, and which signs nothing else
            var caSecret = issuer.path("spec").path("ca").path("secretName").asText();
            assertThat(Charts.ofKind(docs, "Certificate")).as("the CA of %s", name(certificate))
                    .anyMatch(c -> c.path("spec").path("isCA").asBoolean() && c.path("spec").path("secretName").asText().equals(caSecret));
            assertThat(Charts.ofKind(docs, "Certificate")).as("%s's CA signs it alone", name(certificate))
                    .filteredOn(c -> c.path("spec").path("issuerRef").path("name").asText().equals(name(issuer))).hasSize(1);
            leaves.put(spec.path("secretName").asText(), spec);
        }

        var cassandra = Charts.ofKind(docs, "K8ssandraCluster").get(0).path("spec");
        var options = cassandra.path("cassandra").path("config").path("cassandraYaml").path("client_encryption_options");
        assertThat(options.path("enabled").asBoolean()).as("Cassandra: client encryption").isTrue();
        assertThat(options.path("optional").isBoolean()).isTrue();
        assertThat(options.path("optional").asBoolean()).as("Cassandra refuses clients without TLS").isFalse();
        var stores = cassandra.path("cassandra").path("clientEncryptionStores");
        var storesSecret = stores.path("keystoreSecretRef").path("name").asText();
        assertThat(leaves).containsKey(storesSecret);
        var jks = leaves.get(storesSecret).path("keystores").path("jks");
        assertThat(jks.path("create").asBoolean()).isTrue();
        assertThat(stores.path("keystoreSecretRef").path("key").asText()).isEqualTo("keystore.jks");
        assertThat(stores.path("truststoreSecretRef").path("name").asText()).isEqualTo(storesSecret);
        assertThat(stores.path("truststoreSecretRef").path("key").asText()).isEqualTo("truststore.jks");
        for (var password : List.of(stores.path("keystorePasswordSecretRef"), stores.path("truststorePasswordSecretRef"))) {
            assertThat(password).as("the password cert-manager made the stores with").isEqualTo(jks.path("passwordSecretRef"));
        }
        // the password is made in the cluster (helm/generated-secrets), never in Git (CommittedSecretsTest)
        var generated = Charts.named(docs, "HelmRelease", "generated-secrets").path("spec").path("values").path("secrets");
        assertThat(generated).as("the stores' password is generated").anySatisfy(secret -> {
            assertThat(secret.path("name").asText()).isEqualTo(jks.path("passwordSecretRef").path("name").asText());
            assertThat(secret.path("key").asText()).isEqualTo(jks.path("passwordSecretRef").path("key").asText());
        });
        assertThat(Charts.ofKind(docs, "Secret")).extracting(FluxIT::name).doesNotContain(jks.path("passwordSecretRef").path("name").asText());
        if (cassandra.has("medusa")) {
            // Medusa's CQL connection checks the node against the same CA (PEM)
            var medusa = cassandra.path("medusa").path("clientEncryptionStores");
            assertThat(medusa.path("keystoreSecretRef").path("name").asText()).isEqualTo(storesSecret);
            assertThat(medusa.path("keystoreSecretRef").path("key").asText()).isEqualTo("ca.crt");
        }

        var mq = Charts.ofKind(docs, "RabbitmqCluster").get(0);
        var tls = mq.path("spec").path("tls");
        assertThat(tls.path("disableNonTLSListeners").asBoolean()).as("RabbitMQ: AMQP without TLS off").isTrue();
        assertThat(leaves).containsKey(tls.path("secretName").asText());
        assertThat(leaves.get(tls.path("secretName").asText()).path("dnsNames")).extracting(JsonNode::asText)
                .as("the name the app connects to").contains(name(mq));

        var es = Charts.ofKind(docs, "Elasticsearch").get(0);
        var esTls = es.path("spec").path("http").path("tls");
        assertThat(esTls.path("selfSignedCertificate").path("disabled").asBoolean(false)).as("Elasticsearch: HTTPS").isFalse();
        // ECK serves the Secret's tls.crt and tls.key (ECK v3.1.0 TLSOptions.Certificate): cert-manager's, for the
        // name in the app's URL
        var esSecret = esTls.path("certificate").path("secretName").asText();
        assertThat(leaves).as("Elasticsearch: cert-manager's certificate").containsKey(esSecret);
        var esHost = URI.create(Charts.values(env.equals("production") ? Values.PRODUCTION : Values.STAGING)
                .path("config").path("elasticsearch").path("hosts").get(0).asText()).getHost();
        assertThat(esHost).isEqualTo(name(es) + "-es-http");
        assertThat(leaves.get(esSecret).path("dnsNames")).extracting(JsonNode::asText)
                .as("the name the app connects to").contains(esHost, esHost + "." + es.path("metadata").path("namespace").asText() + ".svc");

        var hba = new ArrayList<String>();
        Charts.ofKind(docs, "Cluster").get(0).path("spec").path("postgresql").path("pg_hba").forEach(r -> hba.add(r.asText()));
        assertThat(hba).as("PostgreSQL: no connection without TLS").contains("hostnossl all all all reject");
        assertThat(hba.indexOf("hostnossl all all all reject")).as("before any rule that would admit one").isZero();
    }

    @Test
    void yamllintIsClean() {
        var result = Tools.yamllint(List.of("--strict", "--config-file", ".yamllint",
                "helm/profile-store/Chart.yaml", "helm/profile-store/values.yaml",
                "helm/profile-store/values-staging.yaml", "helm/profile-store/values-production.yaml", "flux"));
        assertThat(result.exitCode()).as("yamllint:%n%s", result.output()).isZero();
    }

    private static List<JsonNode> instances(String env) {
        return Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/instances/" + env)));
    }

    /** The patch of this kind in production's object-store.yaml, where the operator sets the buckets. */
    private static JsonNode productionObjectStore(String kind) throws IOException {
        var patches = Charts.parse(Files.readString(FLUX.resolve("infrastructure/instances/production/object-store.yaml")));
        assertThat(Charts.ofKind(patches, kind)).hasSize(1);
        return Charts.ofKind(patches, kind).get(0);
    }

    /** The namespace of each operator's HelmRelease, by the release's name. */
    private static Map<String, String> operatorNamespaces() {
        var namespaces = new LinkedHashMap<String, String>();
        for (var release : Charts.ofKind(Charts.parse(Tools.kustomize(FLUX.resolve("infrastructure/controllers"))), "HelmRelease")) {
            namespaces.put(name(release), release.path("metadata").path("namespace").asText());
        }
        return namespaces;
    }

    /** The app's pods as the chart renders them with an environment's values: the API, the indexer, migrate. */
    private static List<Pod> appPods(Values values) {
        var docs = Charts.documents(values);
        var pods = new ArrayList<Pod>();
        for (var workload : List.of(Charts.named(docs, "Deployment", "profile-store-api"),
                Charts.named(docs, "Deployment", "profile-store-indexer"), Charts.named(docs, "Job", "profile-store-migrate"))) {
            pods.add(new Pod(Charts.NAMESPACE, NetworkPolicies.labels(workload.path("spec").path("template").path("metadata").path("labels"))));
        }
        // the maintenance CronJobs' pods reach the same services (reconcile and check-tables read all four)
        var cronJobs = Charts.ofKind(docs, "CronJob");
        assertThat(cronJobs).as("the chart's CronJobs").isNotEmpty();
        for (var cronJob : cronJobs) {
            var template = cronJob.path("spec").path("jobTemplate").path("spec").path("template");
            pods.add(new Pod(Charts.NAMESPACE, NetworkPolicies.labels(template.path("metadata").path("labels"))));
        }
        return pods;
    }

    private static String env(JsonNode container, String variable) {
        for (var e : container.path("additionalEnvVars")) {
            if (e.path("name").asText().equals(variable)) {
                return e.path("value").asText();
            }
        }
        throw new AssertionError(variable + " is not set");
    }

    /** The smallest gc_grace_seconds of the app's tables (cql/): Cassandra's default, 10 days, where none is set. */
    private static long gcGraceSeconds() throws IOException {
        long smallest = 864_000;
        try (Stream<Path> files = Files.list(Charts.PROJECT.resolve("cql"))) {
            for (var file : files.filter(f -> f.toString().endsWith(".cql")).toList()) {
                var matcher = Pattern.compile("(?i)gc_grace_seconds\\s*=\\s*(\\d+)").matcher(Files.readString(file));
                while (matcher.find()) {
                    smallest = Math.min(smallest, Long.parseLong(matcher.group(1)));
                }
            }
        }
        return smallest;
    }

    /** A cert-manager duration in whole hours (87600h). */
    private static long hours(String duration) {
        var matcher = Pattern.compile("(\\d+)h").matcher(duration);
        assertThat(matcher.matches()).as("a duration in hours: %s", duration).isTrue();
        return Long.parseLong(matcher.group(1));
    }

    /** A Kubernetes quantity (512Mi, 4Gi) or a PostgreSQL size (128MB, 1GB: units of 1024) in bytes. */
    private static long bytes(String size) {
        var matcher = Pattern.compile("(\\d+)\\s*(Ki|Mi|Gi|kB|MB|GB)?").matcher(size);
        assertThat(matcher.matches()).as("a size: %s", size).isTrue();
        long n = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2) == null ? "" : matcher.group(2)) {
            case "Ki", "kB" -> n * 1024;
            case "Mi", "MB" -> n * MIB;
            case "Gi", "GB" -> n * MIB * 1024;
            default -> n;
        };
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

    private static String name(JsonNode doc) {
        return doc.path("metadata").path("name").asText();
    }
}
