package io.profilestore.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.jackson.Jackson;
import io.profilestore.auth.AuthSettings;
import org.junit.jupiter.api.Test;

/** What the console's page is told of its sign-in: whether it may ask for an API key, and the provider. */
class ConsoleSettingsJsonTest {

    @Test
    void wherePeoplesKeysAreRefusedThePageAsksForNone() throws Exception {
        var auth = new AuthSettings();
        auth.apiKeysForPeople = false;
        var console = new ConsoleSettings();
        console.oidc.authorizationEndpoint = "https://idp.example/authorize";
        console.oidc.tokenEndpoint = "https://idp.example/token";
        console.oidc.clientId = "profile-store-console";

        JsonNode json = settings(console, auth);

        assertThat(json.path("authEnabled").asBoolean()).isTrue();
        assertThat(json.path("apiKeys").isBoolean()).isTrue();
        assertThat(json.path("apiKeys").asBoolean()).isFalse();
        assertThat(json.path("oidc").path("clientId").asText()).isEqualTo("profile-store-console");
    }

    @Test
    void byDefaultThePageAsksForAKey() throws Exception {
        JsonNode json = settings(new ConsoleSettings(), new AuthSettings());

        assertThat(json.path("apiKeys").asBoolean(false)).isTrue();
        assertThat(json.has("oidc")).isFalse();
    }

    private static JsonNode settings(ConsoleSettings console, AuthSettings auth) throws Exception {
        var mapper = Jackson.newObjectMapper();
        return mapper.readTree(new Console.SettingsServlet(console, auth, mapper).body());
    }
}
