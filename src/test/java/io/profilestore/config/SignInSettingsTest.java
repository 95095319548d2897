package io.profilestore.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.jersey.validation.Validators;
import io.profilestore.auth.JwtSettings;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The service refuses to start where nobody could sign in as a person (people's keys refused and no provider) or
 * where the console's sign-in would hand the page tokens the service refuses (no key set to check them).
 */
class SignInSettingsTest {

    static final Validator VALIDATOR = Validators.newValidator();

    @Test
    void peoplesKeysRefusedNeedAKeySetForPeoplesTokens() {
        var config = new ProfileStoreConfiguration();
        config.auth.apiKeysForPeople = false;

        assertThat(messages(config)).anyMatch(m -> m.contains("people sign in with JWTs only"));

        config.auth.setJwt(jwt());
        assertThat(messages(config)).noneMatch(m -> m.contains("people sign in with JWTs only"));
    }

    @Test
    void theConsolesSignInNeedsAKeySetForItsTokens() {
        var config = new ProfileStoreConfiguration();
        config.console.oidc.authorizationEndpoint = "https://idp.example/authorize";
        config.console.oidc.tokenEndpoint = "https://idp.example/token";
        config.console.oidc.clientId = "profile-store-console";

        assertThat(messages(config)).anyMatch(m -> m.contains("console.oidc"));

        config.auth.setJwt(jwt());
        assertThat(messages(config)).noneMatch(m -> m.contains("console.oidc"));
    }

    @Test
    void peoplesKeysRefusedLeaveTheConsoleTheProviderOrNothing() {
        var config = new ProfileStoreConfiguration();
        config.auth.apiKeysForPeople = false;
        config.auth.setJwt(jwt());

        assertThat(messages(config)).anyMatch(m -> m.contains("nobody could sign in to it"));

        config.console.enabled = false;
        assertThat(messages(config)).noneMatch(m -> m.contains("nobody could sign in to it"));
    }

    @Test
    void theConsolesClientIsNotTheAudience() {
        var config = new ProfileStoreConfiguration();
        config.auth.setJwt(jwt());
        config.console.oidc.authorizationEndpoint = "https://idp.example/authorize";
        config.console.oidc.tokenEndpoint = "https://idp.example/token";
        config.console.oidc.clientId = config.auth.jwt().audience;

        assertThat(messages(config)).anyMatch(m -> m.contains("console.oidc.clientId is auth.jwt.audience"));

        config.console.oidc.clientId = "profile-store-console";
        assertThat(messages(config)).noneMatch(m -> m.contains("console.oidc.clientId"));
    }

    @Test
    void withAuthenticationOffNeitherIsAsked() {
        var config = new ProfileStoreConfiguration();
        config.auth.enabled = false;
        config.auth.apiKeysForPeople = false;
        config.console.oidc.authorizationEndpoint = "https://idp.example/authorize";
        config.console.oidc.tokenEndpoint = "https://idp.example/token";
        config.console.oidc.clientId = "profile-store-console";

        assertThat(messages(config)).noneMatch(m -> m.contains("auth.apiKeysForPeople") || m.contains("console.oidc"));
    }

    private static JwtSettings jwt() {
        var jwt = new JwtSettings();
        jwt.jwksUrl = "https://idp.example/jwks";
        jwt.issuer = "https://idp.example/";
        return jwt;
    }

    private static List<String> messages(ProfileStoreConfiguration config) {
        return VALIDATOR.validate(config).stream().map(ConstraintViolation::getMessage).toList();
    }
}
