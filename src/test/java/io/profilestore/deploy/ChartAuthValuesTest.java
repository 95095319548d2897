package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.deploy.Charts.Values;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chart refuses, when it renders, what the service would refuse when it starts: authentication off (the service
 * then insists on loopback, which a pod's Service cannot reach), a key set or the console's sign-in over plain http,
 * a sign-in whose tokens nothing checks, and people's keys refused with no provider to sign in with.
 */
class ChartAuthValuesTest {

    @Test
    void authenticationCannotBeTurnedOff() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("config.auth.enabled", false)))
                .hasMessageContaining("auth");
    }

    @Test
    void aKeySetOverPlainHttpIsRefused() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of(
                "config.auth.jwt.jwksUrl", "http://idp.example/jwks",
                "config.auth.jwt.issuer", "https://idp.example/")))
                .hasMessageContaining("jwksUrl");
    }

    /** With the provider's address among the pods' destinations (ChartNetworkPolicyTest: refused without). */
    @Test
    void aKeySetOverHttpsRenders() {
        String rendered = Charts.template(Values.DEFAULT, Map.of(
                "config.auth.jwt.jwksUrl", "https://idp.example/jwks",
                "config.auth.jwt.issuer", "https://idp.example/",
                "networkPolicy.egress.extra[0].to[0].ipBlock.cidr", "203.0.113.7/32",
                "networkPolicy.egress.extra[0].ports[0]", 443));
        assertThat(rendered).contains("https://idp.example/jwks");
    }

    @Test
    void theConsolesSignInOverPlainHttpIsRefused() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of(
                "config.auth.jwt.jwksUrl", "https://idp.example/jwks",
                "config.auth.jwt.issuer", "https://idp.example/",
                "config.console.oidc.authorizationEndpoint", "http://idp.example/authorize",
                "config.console.oidc.tokenEndpoint", "https://idp.example/token",
                "config.console.oidc.clientId", "console")))
                .hasMessageContaining("authorizationEndpoint");
    }

    @Test
    void theConsolesSignInNeedsItsEndpointsAndAKeySetForItsTokens() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("config.console.oidc.clientId", "console")))
                .hasMessageContaining("jwksUrl");
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of(
                "config.auth.jwt.jwksUrl", "https://idp.example/jwks",
                "config.auth.jwt.issuer", "https://idp.example/",
                "config.console.oidc.clientId", "console")))
                .hasMessageContaining("authorizationEndpoint");
    }

    @Test
    void peoplesKeysRefusedNeedAProviderToSignInWith() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("config.auth.apiKeysForPeople", false)))
                .hasMessageContaining("jwksUrl");
    }

    @Test
    void whatTheServiceWouldRefuseOfTheTokensAndTheReloadsTheChartRefusesToo() {
        for (var refused : Map.<String, Object>of("config.auth.reloadEvery", "0s", "config.auth.jwt.clockSkew", "10m",
                "config.auth.jwt.maxTokenLifetime", "48h").entrySet()) {
            assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of(refused.getKey(), refused.getValue())))
                    .as(refused.getKey()).hasMessageContaining(refused.getKey().substring(refused.getKey().lastIndexOf('.') + 1));
        }
        assertThat(Charts.template(Values.DEFAULT, Map.of("config.auth.reloadEvery", "5m", "config.auth.jwt.clockSkew", "300s",
                "config.auth.jwt.maxTokenLifetime", "24h"))).contains("reloadEvery: 5m");
    }

    @Test
    void anUnknownSettingOfTheConsoleIsRefused() {
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("config.console.signIn", "keys")))
                .hasMessageContaining("signIn");
    }
}
