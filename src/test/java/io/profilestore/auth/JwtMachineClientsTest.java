package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.TestAuth;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A JWT is a machine's only when the client it was issued to ({@code client_id}, else {@code azp}) is on the
 * configured list; a person whose provider grants only {@code platform} stays a person.
 */
class JwtMachineClientsTest {

    private static JwtVerifier verifier(List<String> machineClients) {
        var settings = new JwtSettings();
        settings.jwksFile = TestAuth.jwksFile().toString();
        settings.issuer = TestAuth.ISSUER;
        settings.machineClients = machineClients;
        return new JwtVerifier(settings);
    }

    private static String token(Map<String, Object> client) {
        return TestAuth.jwt("service-account-1", List.of("platform"), Duration.ofMinutes(5), client);
    }

    @Test
    void aTokenOfAListedClientIsAMachine() {
        var verifier = verifier(List.of("processing-platform"));

        assertThat(verifier.authenticate(token(Map.of("azp", "processing-platform"))))
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isTrue());
        assertThat(verifier.authenticate(token(Map.of("client_id", "processing-platform"))))
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isTrue());
    }

    @Test
    void aPlatformTokenOfAnyOtherClientIsAPerson() {
        var verifier = verifier(List.of("processing-platform"));

        assertThat(verifier.authenticate(token(Map.of("azp", "console"))))
                .hasValueSatisfying(caller -> {
                    assertThat(caller.isMachine()).isFalse();
                    assertThat(caller.roles()).containsExactly(Role.PLATFORM);
                });
        assertThat(verifier.authenticate(token(Map.of()))).as("no client named")
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }

    @Test
    void clientIdWinsOverAzp() {
        var verifier = verifier(List.of("processing-platform"));

        // RFC 9068's client_id names the client an access token was issued to; azp may name another party
        assertThat(verifier.authenticate(token(Map.of("client_id", "console", "azp", "processing-platform"))))
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }

    @Test
    void aListedClientsTokenWithAPersonsRoleIsAPersons() {
        var verifier = verifier(List.of("processing-platform"));
        var withAdmin = TestAuth.jwt("signed-in-through-the-machine-client", List.of("platform", "admin"),
                Duration.ofMinutes(5), Map.of("azp", "processing-platform"));

        // a person who signs in through a machine's client is still a person, audited before each look-up
        assertThat(verifier.authenticate(withAdmin)).hasValueSatisfying(caller -> {
            assertThat(caller.isMachine()).isFalse();
            assertThat(caller.roles()).containsExactlyInAnyOrder(Role.PLATFORM, Role.ADMIN);
        });
    }

    @Test
    void aClientClaimThatIsNoTextNamesNoClientAndRefusesNoOne() {
        var verifier = verifier(List.of("processing-platform"));

        assertThat(verifier.authenticate(token(Map.of("client_id", List.of("processing-platform")))))
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }

    @Test
    void withNoListNoTokenIsAMachine() {
        assertThat(verifier(List.of()).authenticate(token(Map.of("azp", "processing-platform"))))
                .hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }
}
