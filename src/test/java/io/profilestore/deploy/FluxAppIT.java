package io.profilestore.deploy;

import static io.profilestore.deploy.Flux.instances;
import static io.profilestore.deploy.Flux.name;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The app's release in flux/ reaches what the instances create: the chart's own values files, the services, data
 * center and Secrets the operators make, TLS against each instance's CA, and an Elasticsearch role limited to the
 * app's indices.
 */
class FluxAppIT {

    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void theAppUsesTheChartsValuesFilesAndReachesTheInstances(String env) throws IOException {
        var release = Charts.named(Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("apps/" + env))), "HelmRelease", "profile-store");
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
        var instances = Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/instances/" + env)));
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
}
