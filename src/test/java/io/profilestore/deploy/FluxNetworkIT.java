package io.profilestore.deploy;

import static io.profilestore.deploy.Flux.instances;
import static io.profilestore.deploy.Flux.name;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.deploy.NetworkPolicies.Pod;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The backing services' network in flux/: only the app, their peers, their operators and monitoring reach them, the
 * chart's egress lets the app out to their pods (as their operators label them) on the client ports, and each serves
 * TLS only, with a certificate the app can check.
 */
class FluxNetworkIT {

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
        var rendered = Charts.documents(env.equals("production") ? Values.PRODUCTION : Values.STAGING);
        var appPolicies = NetworkPolicies.inNamespace(Charts.ofKind(rendered, "NetworkPolicy"), namespace);
        var app = appPods(env.equals("production") ? Values.PRODUCTION : Values.STAGING);
        assertThat(app).as("the app's API, indexer and migrate pods and the two CronJobs").hasSize(5);
        for (var service : services) {
            var pods = service.pods();
            assertThat(NetworkPolicies.selecting(policies, pods)).as("a policy selects %s", pods).isNotEmpty();
            for (var appPod : app) {
                assertThat(appPod.namespace()).isEqualTo(namespace);
                // the chart lets the app out to these very pods, on the client port alone
                assertThat(NetworkPolicies.reachable(appPolicies, appPod, pods)).as("%s to %s", appPod, pods)
                        .containsExactlyInAnyOrderElementsOf(service.client());
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
        assertThat(Charts.ofKind(docs, "Secret")).extracting(Flux::name).doesNotContain(jks.path("passwordSecretRef").path("name").asText());
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

    /**
     * Cassandra's nodes talk to each other over mutual TLS only: internode encryption for all traffic, not optional,
     * each node presenting its certificate, from the key stores cert-manager makes with the generated password. The
     * internode certificate comes from a CA of its own, not the one the app trusts for CQL, so that a certificate the
     * app would accept from a server cannot join the ring, and the ring's certificate is no CQL server's.
     */
    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void cassandraNodesTalkToEachOtherOverMutualTlsOnly(String env) throws IOException {
        var docs = instances(env);
        var cassandra = Charts.ofKind(docs, "K8ssandraCluster").get(0).path("spec").path("cassandra");
        var options = cassandra.path("config").path("cassandraYaml").path("server_encryption_options");
        assertThat(options.path("internode_encryption").asText()).as("Cassandra: internode encryption").isEqualTo("all");
        assertThat(options.path("optional").isBoolean()).as("optional stated, not left to Cassandra's default").isTrue();
        assertThat(options.path("optional").asBoolean()).as("no plain connection between nodes").isFalse();
        assertThat(options.path("require_client_auth").asBoolean()).as("each node presents its certificate").isTrue();
        // Cassandra 5 ignores server_encryption_options.enabled (internode_encryption decides): it would mislead
        assertThat(options.has("enabled")).isFalse();

        var stores = cassandra.path("serverEncryptionStores");
        var secret = stores.path("keystoreSecretRef").path("name").asText();
        var certificate = Charts.ofKind(docs, "Certificate").stream()
                .filter(c -> c.path("spec").path("secretName").asText().equals(secret)).findFirst()
                .orElseThrow(() -> new AssertionError("no Certificate writes the internode key stores' Secret " + secret));
        var spec = certificate.path("spec");
        assertThat(stores.path("keystoreSecretRef").path("key").asText()).isEqualTo("keystore.jks");
        assertThat(stores.path("truststoreSecretRef").path("name").asText()).isEqualTo(secret);
        assertThat(stores.path("truststoreSecretRef").path("key").asText()).isEqualTo("truststore.jks");
        var jks = spec.path("keystores").path("jks");
        assertThat(jks.path("create").asBoolean()).isTrue();
        for (var password : List.of(stores.path("keystorePasswordSecretRef"), stores.path("truststorePasswordSecretRef"))) {
            assertThat(password).as("the password cert-manager made the stores with").isEqualTo(jks.path("passwordSecretRef"));
        }
        assertThat(spec.path("usages")).extracting(JsonNode::asText).as("a node is server and client of its peers")
                .contains("server auth", "client auth");
        assertThat(spec.path("isCA").asBoolean()).isFalse();

        // its CA is none the app trusts: not the CQL certificate's, not any other service's
        var internodeIssuer = spec.path("issuerRef").path("name").asText();
        var cqlSecret = cassandra.path("clientEncryptionStores").path("keystoreSecretRef").path("name").asText();
        var trustedByTheApp = new ArrayList<String>();
        for (var leaf : Charts.ofKind(docs, "Certificate")) {
            if (!leaf.path("spec").path("isCA").asBoolean() && !Flux.name(leaf).equals(Flux.name(certificate))) {
                trustedByTheApp.add(leaf.path("spec").path("issuerRef").path("name").asText());
            }
        }
        assertThat(trustedByTheApp).as("the other leaves' issuers").isNotEmpty().doesNotContain(internodeIssuer);
        assertThat(secret).isNotEqualTo(cqlSecret);
        var ca = Charts.named(docs, "Issuer", internodeIssuer).path("spec").path("ca").path("secretName").asText();
        var values = Charts.values(env.equals("production") ? Values.PRODUCTION : Values.STAGING).path("config");
        for (var service : List.of("cassandra", "elasticsearch", "postgres", "rabbitmq")) {
            assertThat(values.path(service).path("tls").path("ca").path("secretName").asText())
                    .as("the app trusts %s by another Secret", service).isNotIn(ca, secret);
        }
    }

    /** The namespace of each operator's HelmRelease, by the release's name. */
    private static Map<String, String> operatorNamespaces() {
        var namespaces = new LinkedHashMap<String, String>();
        for (var release : Charts.ofKind(Charts.parse(Tools.kustomize(Flux.FOLDER.resolve("infrastructure/controllers"))), "HelmRelease")) {
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

    /** A cert-manager duration in whole hours (87600h). */
    private static long hours(String duration) {
        var matcher = Pattern.compile("(\\d+)h").matcher(duration);
        assertThat(matcher.matches()).as("a duration in hours: %s", duration).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
