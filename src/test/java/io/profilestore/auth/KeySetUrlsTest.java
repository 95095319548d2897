package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.jersey.validation.Validators;
import io.profilestore.console.ConsoleOidcSettings;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where the service fetches the keys that decide who is an admin, and where the console sends people to sign in:
 * https only, so that nobody on the path can swap the key set or the sign-in page; plain http only to this machine
 * (tests' fake providers).
 */
class KeySetUrlsTest {

    static final Validator VALIDATOR = Validators.newValidator();

    static final List<String> REFUSED = List.of("http://idp.example/jwks", "http://10.0.0.1/jwks",
            "http://127.0.0.1.evil.example/jwks", "http://localhost.evil.example/jwks", "ftp://idp.example/jwks",
            "HTTP://idp.example/jwks", "http://[::2]/jwks", "idp.example/jwks");
    static final List<String> ACCEPTED = List.of("https://idp.example/.well-known/jwks.json", "HTTPS://idp.example/k",
            "http://127.0.0.1:8080/jwks", "http://127.9.9.9/jwks", "http://localhost:9000/jwks", "http://[::1]:9000/jwks");

    @Test
    void aJwksUrlIsHttpsOrOnThisMachine() {
        for (String url : REFUSED) {
            assertThat(messages(VALIDATOR.validate(jwt(url)))).as(url).anyMatch(m -> m.contains("jwksUrl must be https://"));
        }
        for (String url : ACCEPTED) {
            assertThat(VALIDATOR.validate(jwt(url))).as(url).isEmpty();
        }
    }

    @Test
    void theConsolesSignInEndpointsAreHttpsOrOnThisMachine() {
        for (String url : REFUSED) {
            assertThat(messages(VALIDATOR.validate(oidc(url, "https://idp.example/token")))).as(url)
                    .anyMatch(m -> m.contains("https://"));
            assertThat(messages(VALIDATOR.validate(oidc("https://idp.example/authorize", url)))).as(url)
                    .anyMatch(m -> m.contains("https://"));
        }
        for (String url : ACCEPTED) {
            assertThat(VALIDATOR.validate(oidc(url, url))).as(url).isEmpty();
        }
        assertThat(VALIDATOR.validate(new ConsoleOidcSettings())).as("none configured").isEmpty();
    }

    private static JwtSettings jwt(String url) {
        var settings = new JwtSettings();
        settings.jwksUrl = url;
        settings.issuer = "https://idp.example";
        settings.audience = "profile-store";
        return settings;
    }

    private static ConsoleOidcSettings oidc(String authorization, String token) {
        var settings = new ConsoleOidcSettings();
        settings.authorizationEndpoint = authorization;
        settings.tokenEndpoint = token;
        settings.clientId = "console";
        return settings;
    }

    private static List<String> messages(java.util.Set<? extends ConstraintViolation<?>> violations) {
        return violations.stream().map(v -> v.getPropertyPath() + " " + v.getMessage()).toList();
    }
}
