package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What the search for a profile's possible duplicates asks of Elasticsearch, and how grounds make a score. */
class MatchQueryTest {

    static final NameNormalizer NAMES = NameNormalizer.standard();
    static final ObjectMapper JSON = new ObjectMapper();
    static final NumberKeys KEYS = NumberKeys.parse("k1:" + "a".repeat(43) + "=");
    static final UUID PID = UUID.randomUUID();
    static final UUID UID = UUID.randomUUID();

    static ProfileDocument profile(String data) throws Exception {
        return ProfileDocument.of(PID, UID, null, 3, JSON.readTree(data), Instant.now(), NAMES, KEYS);
    }

    /** The named grounds of the query, each with the clauses it holds. */
    static List<String> grounds(JsonNode query) {
        var grounds = new ArrayList<String>();
        query.path("bool").path("should").forEach(clause -> grounds.add(clause.findValue("_name").asText()));
        return grounds;
    }

    @Test
    void eachGroundTheProfileHoldsIsANamedClauseAndOneSuffices() throws Exception {
        var profile = profile("{\"surname\": \"Иванова\", \"firstName\": \"Анна\", \"birthDate\": \"1985-04-12\","
                + " \"phones\": [\"+7 (912) 345-67-89\"], \"documents\": [{\"type\": \"passport\", \"number\": \"45 07 123456\"}],"
                + " \"email\": \"Anna.Ivanova@Example.com\"}");

        var request = SearchQueryTest.json(MatchQuery.request("profiles", profile, MatchService.WEIGHTS));
        var query = request.path("query");

        assertThat(grounds(query)).containsExactly("document", "phone", "email", "name-and-birth-date");
        assertThat(query.path("bool").path("minimum_should_match").asText()).isEqualTo("1");
        // the numbers and the e-mail as the index holds them, keyed hashes, never in clear
        assertThat(query.toString()).contains(KEYS.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0),
                KEYS.hashes(NumberKeys.Kind.DOCUMENT, "4507123456").get(0),
                KEYS.hashes(NumberKeys.Kind.EMAIL, "anna.ivanova@example.com").get(0), "\"1985-04-12\"");
        assertThat(query.toString()).doesNotContain("79123456789", "4507123456", "anna.ivanova");
        // the names by their keys, exactly (not as prefixes): Иванова meets Ivanova
        var name = query.path("bool").path("should").get(3).path("constant_score").path("filter").path("bool").path("filter");
        assertThat(name.get(0).path("terms").path("surnameKey").get(0).asText())
                .isEqualTo(NAMES.indexKeys("Ivanova").get(0));
        // each ground scores its weight, and the hits come strongest first: a phone many share cannot push a
        // document's match out of the hits looked at
        query.path("bool").path("should").forEach(clause -> assertThat(clause.path("constant_score").path("boost")
                .asDouble()).isCloseTo(MatchService.WEIGHTS.get(clause.findValue("_name").asText()), within(1e-6)));
        assertThat(request.path("sort").get(0).toString()).contains("_score");
        // never the profile's own user, nor itself
        assertThat(query.path("bool").path("must_not").toString()).contains(UID.toString(), PID.toString());
    }

    @Test
    void aNameWithoutABirthDateIsNoGroundAndAProfileWithoutGroundsHasNoMatches() throws Exception {
        var nameOnly = profile("{\"surname\": \"Иванова\", \"firstName\": \"Анна\", \"segment\": \"retail\"}");
        assertThat(MatchQuery.hasGrounds(nameOnly)).isFalse();

        var phone = profile("{\"surname\": \"Иванова\", \"phones\": [\"89123456789\"]}");
        assertThat(grounds(SearchQueryTest.json(MatchQuery.request("profiles", phone, MatchService.WEIGHTS)).path("query")))
                .containsExactly("phone");
    }

    @Test
    void groundsCombineAsIndependentEvidence() {
        assertThat(MatchService.score(Set.of("document"))).isEqualTo(0.9);
        assertThat(MatchService.score(Set.of("phone"))).isEqualTo(0.5);
        assertThat(MatchService.score(Set.of("phone", "email"))).isEqualTo(0.75);
        assertThat(MatchService.score(Set.of("name-and-birth-date", "phone"))).isEqualTo(0.85);
        assertThat(MatchService.score(Set.of("document", "name-and-birth-date", "phone", "email"))).isEqualTo(0.993);
        assertThat(MatchService.score(Set.of("phone", "email"))).isLessThan(MatchService.score(Set.of("document")));
    }
}
