package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The chart's NetworkPolicy on the API port denies by default: no client named, no client admitted; every pod only
 * when networkPolicy.allowAllClients says so; the environments name theirs.
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
