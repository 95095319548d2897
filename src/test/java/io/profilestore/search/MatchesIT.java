package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * GET /v1/profiles/{pid}/matches against the real index: other users found by a shared document, phone or e-mail,
 * or by surname, first name and birth date in another alphabet; ranked by score with their grounds; never the
 * profile's own user; recorded in the audit trail as a person's look-up of everyone it shows.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MatchesIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    Api platform;
    Api operator;

    @BeforeEach
    void clients() {
        platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        operator = platform.as(TestAuth.OPERATOR);
    }

    UUID created(UUID uid, String data) {
        var reply = uid == null ? platform.create(data) : platform.createFor(uid, data);
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        SearchApi.awaitIndexed(reply.pid(), 1);
        return reply.pid();
    }

    static UUID uid(Api api, UUID pid) {
        return UUID.fromString(api.get(pid).json().path("uid").asText());
    }

    @Test
    void otherUsersSharingAGroundAreRankedByScoreWithTheirGroundsAndTheOwnUserIsNone() {
        // a birth date and numbers no other test uses, so that only this test's profiles can match
        var born = LocalDate.of(1930, 1, 1).plusDays(ThreadLocalRandom.current().nextInt(20_000));
        String phone = SearchApi.uniquePhone();
        String passport = phone.replaceAll("\\D", "").substring(1);
        String email = "dublikatova." + UUID.randomUUID() + "@example.com";
        var subject = created(null, "{\"surname\": \"Дубликатова\", \"firstName\": \"Анна\", \"birthDate\": \"" + born
                + "\", \"phones\": [\"" + phone + "\"], \"documents\": [{\"type\": \"passport\", \"number\": \""
                + passport + "\"}], \"email\": \"" + email + "\"}");
        var own = created(uid(platform, subject), "{\"phones\": [\"" + phone + "\"]}");
        var latin = created(null, "{\"surname\": \"Dublikatova\", \"firstName\": \"Anna\", \"birthDate\": \"" + born + "\"}");
        var sameDocument = created(null, "{\"surname\": \"Другая\", \"documents\": [\"" + passport + "\"]}");
        var phoneAndEmail = created(null, "{\"phones\": [\"8 " + phone.substring(3) + "\"], \"email\": \""
                + email.toUpperCase() + "\"}");
        var otherBirthDate = created(null, "{\"surname\": \"Дубликатова\", \"firstName\": \"Анна\", \"birthDate\": \""
                + born.plusDays(1) + "\"}");

        var reply = operator.send("GET", "/v1/profiles/" + subject + "/matches", null, null, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var matches = reply.json().path("matches");
        assertThat(matches.findValuesAsText("uid")).containsExactly(uid(platform, sameDocument).toString(),
                uid(platform, phoneAndEmail).toString(), uid(platform, latin).toString());
        assertThat(matches.get(0).path("score").asDouble()).isEqualTo(0.9);
        assertThat(reasons(matches.get(0))).containsExactly("document");
        assertThat(matches.get(1).path("score").asDouble()).isEqualTo(0.75);
        assertThat(reasons(matches.get(1))).containsExactly("phone", "email");
        assertThat(reasons(matches.get(2))).containsExactly("name-and-birth-date");
        assertThat(matches.get(2).path("pids")).hasSize(1);
        assertThat(matches.get(2).path("pids").get(0).asText()).isEqualTo(latin.toString());
        assertThat(reply.body()).doesNotContain(own.toString(), otherBirthDate.toString(), phone, email);

        // a person's look-up: recorded before the answer, with every profile it showed
        var trail = platform.as(TestAuth.ADMIN).send("GET", "/v1/audit?actor=test-operator&pid=" + latin, null, null,
                Map.of());
        var recorded = new ArrayList<JsonNode>();
        trail.json().path("records").forEach(recorded::add);
        assertThat(recorded).anySatisfy(r -> {
            assertThat(r.path("action").asText()).isEqualTo("GET /v1/profiles/{pid}/matches");
            assertThat(r.path("pids")).hasSize(4);
            assertThat(r.path("pids").toString()).contains(subject.toString(), sameDocument.toString(),
                    phoneAndEmail.toString(), latin.toString());
        });
    }

    /**
     * The index learns of a merge, a move or an erase a moment late: matches answer what Cassandra holds now. Here
     * Cassandra is changed behind the index's back: one candidate now stands under the profile's own user, another is
     * gone; neither is a match, whatever the index still says.
     */
    @Test
    void candidatesAreAnsweredAsCassandraHoldsThemNotAsTheIndexLastSawThem() {
        String phone = SearchApi.uniquePhone();
        var subject = created(null, "{\"phones\": [\"" + phone + "\"]}");
        var movedHere = created(null, "{\"phones\": [\"" + phone + "\"]}");
        var erased = created(null, "{\"phones\": [\"" + phone + "\"]}");
        var stays = created(null, "{\"phones\": [\"" + phone + "\"]}");
        var session = TestStack.backends().cassandra();
        session.execute(SimpleStatement.newInstance("UPDATE profiles.profile SET uid = ? WHERE pid = ?",
                uid(platform, subject), movedHere));
        session.execute(SimpleStatement.newInstance("DELETE FROM profiles.profile WHERE pid = ?", erased));

        var reply = operator.send("GET", "/v1/profiles/" + subject + "/matches", null, null, Map.of());

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("matches").findValuesAsText("uid")).containsExactly(uid(platform, stays).toString());
        assertThat(reply.body()).doesNotContain(movedHere.toString(), erased.toString());
    }

    @Test
    void aProfileWithoutGroundsHasNoMatchesAndAnUnknownOneIsNotFound() {
        var bare = created(null, "{\"surname\": \"Одинокова\", \"segment\": \"retail\"}");

        var none = operator.send("GET", "/v1/profiles/" + bare + "/matches", null, null, Map.of());
        assertThat(none.status()).isEqualTo(200);
        assertThat(none.json().path("matches")).isEmpty();

        var unknown = operator.send("GET", "/v1/profiles/" + UUID.randomUUID() + "/matches", null, null, Map.of());
        Api.assertProblem(unknown, 404, "profile-not-found");
    }

    static List<String> reasons(JsonNode match) {
        var reasons = new ArrayList<String>();
        match.path("reasons").forEach(r -> reasons.add(r.asText()));
        return reasons;
    }
}
