package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.deploy.Charts.Values;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The chart refuses, when it renders, what the service would refuse when it starts: authentication off (the service
 * then insists on loopback, which a pod's Service cannot reach) and a key set fetched over plain http.
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

    @Test
    void aKeySetOverHttpsRenders() {
        String rendered = Charts.template(Values.DEFAULT, Map.of(
                "config.auth.jwt.jwksUrl", "https://idp.example/jwks",
                "config.auth.jwt.issuer", "https://idp.example/"));
        assertThat(rendered).contains("https://idp.example/jwks");
    }
}
