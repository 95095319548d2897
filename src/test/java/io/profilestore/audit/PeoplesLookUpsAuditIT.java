package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every person's look-up is recorded as an operator's is, whatever their role: an editor's (the data steward) and an
 * admin's (who finds the people they merge) reads and searches, with the pids they showed.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PeoplesLookUpsAuditIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true")));

    @Test
    void anEditorsAndAnAdminsReadsAndSearchesAreRecordedWithWhatTheyShowed() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        String phone = SearchApi.uniquePhone();
        var created = platform.create("{\"surname\": \"Стюардова\", \"phones\": [\"" + phone + "\"]}");
        UUID pid = created.pid();
        String uid = created.json().path("uid").asText();
        SearchApi.awaitIndexed(pid, 1);
        String digits = phone.replaceAll("\\D", "");

        for (String token : List.of(TestAuth.EDITOR, TestAuth.ADMIN)) {
            var person = platform.as(token);
            assertThat(person.get(pid).status()).isEqualTo(200);
            assertThat(person.send("GET", "/v1/users/" + uid, null, null, Map.of()).status()).isEqualTo(200);
            assertThat(person.send("GET", "/v1/search?phone=" + digits, null, null, Map.of()).status()).isEqualTo(200);
            assertThat(person.send("POST", "/v1/search", "application/json", "{\"phone\": \"" + digits + "\"}", Map.of())
                    .status()).isEqualTo(200);
        }

        var trail = trail(platform.as(TestAuth.ADMIN), pid);
        for (String actor : List.of("test-editor", "test-admin")) {
            var records = trail.stream().filter(r -> r.path("actor").asText().equals(actor)).toList();
            assertThat(records).as("the look-ups of %s", actor).extracting(r -> r.path("action").asText())
                    .containsExactlyInAnyOrder("GET /v1/profiles/{pid}", "GET /v1/users/{uid}", "GET /v1/search",
                            "POST /v1/search");
            assertThat(records).allSatisfy(r -> assertThat(r.path("pids").toString()).contains(pid.toString()));
        }
    }

    private static List<JsonNode> trail(Api admin, UUID pid) {
        var reply = admin.send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var records = new ArrayList<JsonNode>();
        reply.json().path("records").forEach(records::add);
        return records;
    }
}
