package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import io.profilestore.deploy.NetworkPolicies.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chart's NetworkPolicy on the API port denies by default: no client named, no client admitted; every pod only
 * when networkPolicy.allowAllClients says so; the environments name theirs. Out of the pods, it lets through DNS, the
 * release's own admin port (the helm test), each backing service's pods on its client port and the destinations named
 * in networkPolicy.egress.extra (the JWT provider's key set), and nothing else.
 */
class ChartNetworkPolicyTest {

    @Test
    void noClientNamedAdmitsNoClient() {
        var policy = policy(Charts.documents(Values.DEFAULT));
        assertThat(ingressRules(policy)).as("the policy's ingress rules").isNotEmpty();
        assertThat(rulesOfPort(policy, "https")).as("rules admitting anyone to the API port").isEmpty();
        assertThat(ingressRules(policy)).as("the admin port's rule alone").hasSize(1);
        // the admin port keeps its rule
        assertThat(rulesOfPort(policy, "admin")).hasSize(1);
    }

    @Test
    void allowAllClientsIsTheOnlyWayToAdmitEveryPod() {
        var policy = policy(Charts.parse(Charts.template(Values.DEFAULT, Map.of("networkPolicy.allowAllClients", true))));
        var http = rulesOfPort(policy, "https");
        assertThat(http).hasSize(1);
        assertThat(http.get(0).has("from")).as("a rule without from admits every source").isFalse();
    }

    @Test
    void namedClientsAreTheOnlySources() {
        var rendered = Charts.template(Values.DEFAULT, Map.of(
                "networkPolicy.clients[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name", "platform"));
        var http = rulesOfPort(policy(Charts.parse(rendered)), "https");
        assertThat(http).hasSize(1);
        assertThat(http.get(0).path("from")).hasSize(1);
        assertThat(NetworkPolicies.admitsAnyPod(http.get(0))).isFalse();
    }

    @Test
    void clientsAndAllowAllTogetherAreRefused() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("networkPolicy.allowAllClients", true,
                "networkPolicy.clients[0].namespaceSelector.matchLabels.team", "platform")))
                .hasMessageContaining("networkPolicy.allowAllClients");
    }

    /** Each environment names who may call it, and none admits every pod. */
    @ParameterizedTest
    @EnumSource(value = Values.class, names = {"STAGING", "PRODUCTION"})
    void eachEnvironmentNamesItsClients(Values values) {
        var http = rulesOfPort(policy(Charts.documents(values)), "https");
        assertThat(http).as("%s admits named clients to the API port", values).hasSize(1);
        assertThat(http.get(0).path("from")).isNotEmpty();
        assertThat(NetworkPolicies.admitsAnyPod(http.get(0))).as("%s admits any pod", values).isFalse();
    }

    /**
     * The backing services' pods as their operators label them (flux/infrastructure/instances makes them; FluxNetworkIT
     * checks these labels against what flux/ names), with the port the service's clients use.
     */
    static final Map<Pod, Integer> BACKENDS = Map.of(
            new Pod(Charts.NAMESPACE, Map.of("cassandra.datastax.com/cluster", "profiles", "app.kubernetes.io/name", "cassandra",
                    "cassandra.datastax.com/datacenter", "dc1")), 9042,
            new Pod(Charts.NAMESPACE, Map.of("common.k8s.elastic.co/type", "elasticsearch",
                    "elasticsearch.k8s.elastic.co/cluster-name", "profiles")), 9200,
            new Pod(Charts.NAMESPACE, Map.of("cnpg.io/cluster", "profiles-pg", "cnpg.io/podRole", "instance")), 5432,
            new Pod(Charts.NAMESPACE, Map.of("app.kubernetes.io/component", "rabbitmq", "app.kubernetes.io/name", "profiles-mq")), 5671);
    static final Pod KUBE_DNS = new Pod("kube-system", Map.of("k8s-app", "kube-dns"));

    /**
     * Each pod the chart renders (the API, the indexer, migrate, the CronJobs, the helm test) reaches the backing
     * services' pods on their client ports, DNS and its release's admin port, and no other pod on any port: no rule
     * without a destination, none to every pod.
     */
    @ParameterizedTest
    @EnumSource(Values.class)
    void thePodsReachTheBackingServicesDnsAndTheirReleaseOnly(Values values) {
        var docs = Charts.documents(values);
        var policy = policy(docs);
        assertThat(policy.path("spec").path("policyTypes")).extracting(JsonNode::asText).contains("Ingress", "Egress");
        var egress = new ArrayList<JsonNode>();
        policy.path("spec").path("egress").forEach(egress::add);
        assertThat(egress).as("egress rules").isNotEmpty().allSatisfy(rule -> {
            assertThat(NetworkPolicies.sendsToAnyPod(rule)).as("a rule to anywhere: %s", rule).isFalse();
            assertThat(rule.path("ports")).as("a rule on every port: %s", rule).isNotEmpty();
        });
        var dns = egress.stream().filter(r -> r.path("ports").findValuesAsText("port").contains("53")).toList();
        assertThat(dns).hasSize(1);
        assertThat(dns.get(0).path("ports")).extracting(p -> p.path("protocol").asText() + "/" + p.path("port").asText())
                .containsExactlyInAnyOrder("UDP/53", "TCP/53");

        var policies = NetworkPolicies.inNamespace(List.of(policy), Charts.NAMESPACE);
        var pods = podsOf(docs);
        assertThat(pods.keySet()).as("the chart's pods").contains("Deployment/profile-store-api",
                "Deployment/profile-store-indexer", "Job/profile-store-migrate", "CronJob/profile-store-reconcile",
                "CronJob/profile-store-check-tables", "Pod/profile-store-test-healthcheck");
        var release = new Pod(Charts.NAMESPACE, pods.get("Deployment/profile-store-api").labels());
        for (var e : pods.entrySet()) {
            var pod = e.getValue();
            assertThat(NetworkPolicies.selecting(policies, pod)).as("%s is subject to the policy", e.getKey()).isNotEmpty();
            BACKENDS.forEach((backend, port) -> assertThat(NetworkPolicies.reachable(policies, pod, backend))
                    .as("%s to %s", e.getKey(), backend).containsExactly(port));
            assertThat(NetworkPolicies.reachable(policies, pod, KUBE_DNS)).as("%s to DNS", e.getKey()).containsExactly(53);
            assertThat(NetworkPolicies.reachable(policies, pod, release)).as("%s to its release", e.getKey()).containsExactly(8081);
            for (var stranger : List.of(new Pod(Charts.NAMESPACE, Map.of("app.kubernetes.io/name", "something-else")),
                    new Pod("kube-system", Map.of("k8s-app", "metrics-server")), new Pod("default", Map.of()),
                    new Pod("platform", Map.of("cnpg.io/cluster", "profiles-pg")))) {
                assertThat(NetworkPolicies.reachable(policies, pod, stranger)).as("%s to %s", e.getKey(), stranger).isEmpty();
            }
        }
    }

    @Test
    void extraDestinationsAreAddedAsGiven() {
        var rendered = Charts.template(Values.DEFAULT, Map.of(
                "networkPolicy.egress.extra[0].to[0].ipBlock.cidr", "203.0.113.7/32",
                "networkPolicy.egress.extra[0].ports[0]", 443));
        var rules = new ArrayList<JsonNode>();
        policy(Charts.parse(rendered)).path("spec").path("egress").forEach(rules::add);
        var extra = rules.stream().filter(r -> r.path("to").findValuesAsText("cidr").contains("203.0.113.7/32")).toList();
        assertThat(extra).hasSize(1);
        assertThat(extra.get(0).path("ports")).hasSize(1);
        assertThat(extra.get(0).path("ports").get(0).path("port").asInt()).isEqualTo(443);
        assertThat(extra.get(0).path("ports").get(0).path("protocol").asText()).isEqualTo("TCP");
    }

    /** A JWT key set to fetch with the pods' egress limited and no destination named for it would fail every JWT. */
    @Test
    void aKeySetUrlWithoutADestinationForItIsRefused() {
        var jwks = "https://sso.example.com/realms/r/protocol/openid-connect/certs";
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("config.auth.jwt.jwksUrl", jwks,
                "config.auth.jwt.issuer", "https://sso.example.com/realms/r")))
                .hasMessageContaining("networkPolicy.egress.extra");
        Charts.template(Values.DEFAULT, Map.of("config.auth.jwt.jwksUrl", jwks, "config.auth.jwt.issuer",
                "https://sso.example.com/realms/r", "networkPolicy.egress.enabled", false));
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("networkPolicy.egress.extra[0].ports[0]", 443)))
                .as("an extra destination must name where to").hasMessageContaining("values don't meet the specifications of the schema");
    }

    /** Production names its provider's key set (an example on a documentation range, like the provider's name). */
    @Test
    void productionLetsTheApiFetchItsProvidersKeySet() {
        var values = Charts.values(Values.PRODUCTION);
        assertThat(values.path("config").path("auth").path("jwt").path("jwksUrl").asText()).startsWith("https://");
        var egress = values.path("networkPolicy").path("egress");
        assertThat(egress.path("enabled").asBoolean()).isTrue();
        assertThat(egress.path("extra")).hasSize(1);
        assertThat(egress.path("extra").get(0).path("ports")).extracting(JsonNode::asInt).containsExactly(443);
        assertThat(egress.path("extra").get(0).path("to").findValuesAsText("cidr")).containsExactly("192.0.2.0/24");
        assertThat(Charts.values(Values.STAGING).path("networkPolicy").path("egress").path("enabled").asBoolean()).isTrue();
    }

    /** Every pod template of a rendering, by kind/name, as a policy sees it: the release's namespace and its labels. */
    static Map<String, Pod> podsOf(List<JsonNode> docs) {
        var pods = new LinkedHashMap<String, Pod>();
        for (var doc : docs) {
            var metadata = switch (doc.path("kind").asText()) {
                case "Deployment", "Job" -> doc.path("spec").path("template").path("metadata");
                case "CronJob" -> doc.path("spec").path("jobTemplate").path("spec").path("template").path("metadata");
                case "Pod" -> doc.path("metadata");
                default -> null;
            };
            if (metadata != null) {
                pods.put(doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText(),
                        new Pod(Charts.NAMESPACE, NetworkPolicies.labels(metadata.path("labels"))));
            }
        }
        return pods;
    }

    private static JsonNode policy(List<JsonNode> docs) {
        return Charts.named(docs, "NetworkPolicy", Charts.RELEASE);
    }

    private static List<JsonNode> ingressRules(JsonNode policy) {
        var rules = new ArrayList<JsonNode>();
        policy.path("spec").path("ingress").forEach(rules::add);
        return rules;
    }

    private static List<JsonNode> rulesOfPort(JsonNode policy, String port) {
        return ingressRules(policy).stream()
                .filter(rule -> rule.path("ports").findValuesAsText("port").contains(port))
                .toList();
    }
}
