package io.profilestore.auth;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A token anywhere but the Authorization header is refused, and never reaches the audit trail. */
@ExtendWith(DropwizardExtensionsSupport.class)
class CredentialsOnlyInHeaderIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    static final String JWT = TestAuth.jwt("test-operator-jwt", List.of("operator"), Duration.ofMinutes(5));

    @Test
    void aTokenInTheAdminPortsUrlIsRefusedToo() {
        var admin = new Api(APP.getAdminPort()).as(TestAuth.ADMIN);
        var anonymous = admin.as(null);
        assertProblem(anonymous.send("GET", "/healthcheck?access_token=" + TestAuth.ADMIN, null, null, Map.of()),
                400, "credentials-in-url");
        assertProblem(admin.send("GET", "/threads?access_token=" + TestAuth.ADMIN, null, null, Map.of()),
                400, "credentials-in-url");
        assertProblem(admin.send("GET", "/threads?x=" + JWT, null, null, Map.of()), 400, "credentials-in-url");
        assertThat(anonymous.send("GET", "/healthcheck", null, null, Map.of()).status()).isIn(200, 500);
    }

    @Test
    void aTokenInTheQueryStringIsRefusedAndNotRecorded() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var operator = platform.as(TestAuth.OPERATOR);
        var admin = platform.as(TestAuth.ADMIN);
        UUID pid = platform.create("{\"surname\": \"Ключникова\"}").pid();
        var anonymous = new Api(APP.getLocalPort()).as(null);

        for (String query : List.of("access_token=" + TestAuth.OPERATOR, "ACCESS_TOKEN=" + TestAuth.OPERATOR,
                "access%5Ftoken=" + TestAuth.OPERATOR, "x=1&access_token=" + TestAuth.OPERATOR,
                "api_key=" + TestAuth.OPERATOR, "apikey=" + TestAuth.OPERATOR, "token=" + TestAuth.OPERATOR,
                // the reviewer's finding: a token under any other name was answered, and recorded in the audit trail
                "authorization=Bearer%20" + TestAuth.OPERATOR, "key=" + TestAuth.OPERATOR, "surname=" + TestAuth.OPERATOR,
                "id_token=" + JWT, "q=" + JWT, "accessToken=" + TestAuth.OPERATOR)) {
            assertProblem(anonymous.send("GET", "/v1/profiles/" + pid + "?" + query, null, null, Map.of()),
                    400, "credentials-in-url");
            assertProblem(operator.send("GET", "/v1/profiles/" + pid + "?" + query, null, null, Map.of()),
                    400, "credentials-in-url");
            assertProblem(operator.send("GET", "/v1/search?surname=Ключникова&" + query, null, null, Map.of()),
                    400, "credentials-in-url");
        }
        // a matrix parameter of the path is in the URL as much as the query is
        assertProblem(operator.send("GET", "/v1/profiles/" + pid + ";access_token=" + TestAuth.OPERATOR, null, null, Map.of()),
                400, "credentials-in-url");
        // the same look-up with the token where it belongs is answered
        assertThat(operator.get(pid).status()).isEqualTo(200);

        var trail = admin.send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(trail.status()).isEqualTo(200);
        assertThat(trail.json().path("records")).as("the create and the operator's one answered look-up").hasSize(2);
        assertThat(trail.body()).doesNotContain("psk_").doesNotContain("access_token").doesNotContain("ACCESS_TOKEN");
    }
}
