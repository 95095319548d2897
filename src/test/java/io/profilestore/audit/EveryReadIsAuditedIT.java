package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.Routes;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every route the service has, with every method, sent by an operator: what answers with data leaves an audit
 * record of the operator; OPTIONS answers the same for a person who exists and one who does not.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class EveryReadIsAuditedIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true")));

    static final List<String> METHODS = List.of("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "TRACE");

    static Set<String> routes() {
        return new TreeSet<>(Routes.of(APP.getEnvironment().jersey().getResourceConfig()).keySet());
    }

    @Test
    void everyAnswerWithDataToAnOperatorIsAudited() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var operator = platform.as(TestAuth.OPERATOR);
        var admin = platform.as(TestAuth.ADMIN);
        String phone = SearchApi.uniquePhone();
        var created = platform.create("{\"surname\": \"Маршрутова\", \"phones\": [\"" + phone + "\"]}");
        UUID pid = created.pid();
        String uid = created.json().path("uid").asText();
        SearchApi.awaitIndexed(pid, 1);
        var routes = routes();
        assertThat(routes).as("the routes found").contains("/v1/profiles/{pid}", "/v1/search", "/v1/users/{uid}");

        var answeredWithData = new ArrayList<String>();
        // the OpenAPI document shows no person: anyone may read it, unaudited
        routes.remove("/openapi.json");
        routes.remove("/asyncapi.json");
        // nor does the caller's own name and roles (an operator's call is recorded all the same, without a profile)
        routes.remove("/v1/me");
        // nor the console's sign-in, which answers the same
        routes.remove("/v1/console/session");
        for (String template : routes) {
            String path = concrete(template, pid, uid) + (template.equals("/v1/search") ? "?phone=" + phone.replaceAll("\\D", "") : "");
            for (String method : METHODS) {
                boolean hasBody = List.of("POST", "PUT", "PATCH").contains(method);
                var reply = operator.send(method, path, hasBody ? "application/json" : null, hasBody ? "{}" : null,
                        Map.of("If-Match", "\"1\""));
                String action = method + " " + template;
                if (method.equals("OPTIONS")) {
                    var other = operator.send(method, concrete(template, UUID.randomUUID(), UUID.randomUUID().toString()),
                            null, null, Map.of("If-Match", "\"1\""));
                    assertThat(other.status()).as(action).isEqualTo(reply.status());
                    assertThat(other.body()).as(action).isEqualTo(reply.body());
                    assertThat(other.headers().firstValue("Content-Length")).as(action).isEqualTo(reply.headers().firstValue("Content-Length"));
                    continue;
                }
                if (reply.status() < 400) {
                    answeredWithData.add(action);
                    assertThat(trail(admin, pid)).as("an audit record of the operator's %s (answered %d)", action, reply.status())
                            .anyMatch(r -> r.path("actor").asText().equals("test-operator") && r.path("action").asText().equals(action));
                }
            }
        }
        var head = operator.send("HEAD", "/v1/profiles/" + pid, null, null, Map.of());
        assertThat(head.status()).isEqualTo(405);
        assertThat(head.headers().firstValue("Allow")).as("a 405 names what is allowed").hasValue("DELETE, GET, PATCH, PUT");
        assertThat(answeredWithData).as("what an operator was answered").contains(
                "GET /v1/profiles/{pid}", "GET /v1/users/{uid}", "GET /v1/search");
    }

    private static String concrete(String template, UUID pid, String uid) {
        return template.replace("{pid}", pid.toString()).replace("{uid}", uid).replace("{version}", "1");
    }

    private static List<JsonNode> trail(Api admin, UUID pid) {
        var reply = admin.send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var records = new ArrayList<JsonNode>();
        reply.json().path("records").forEach(records::add);
        return records;
    }
}
