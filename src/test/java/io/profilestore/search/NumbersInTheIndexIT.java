package io.profilestore.search;

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
import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * With authentication on, a platform key finds a profile by its phone, its document number and its e-mail, and the
 * matches find a second user by them, while the index itself, read directly, holds none of them in clear.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class NumbersInTheIndexIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    @Test
    void numbersAreFoundByAnExactSearchButTheIndexHoldsNoneInClear() throws IOException {
        var platform = new Api("http://127.0.0.1:" + APP.getLocalPort(), TestAuth.PLATFORM);
        String phone = SearchApi.uniquePhone();
        String phoneDigits = Numbers.phone(phone).orElseThrow();
        String document = String.valueOf(4_000_000_000L + Math.floorMod(UUID.randomUUID().getMostSignificantBits(),
                999_999_999L));
        String email = "n" + UUID.randomUUID().toString().substring(0, 8) + "@numbers.example";
        // a surname of this run's own: the matches by name and birth date meet no profile of another run
        String surname = "Числова" + cyrillic(UUID.randomUUID());
        String data = "{\"surname\": \"" + surname + "\", \"firstName\": \"Анна\", \"birthDate\": \"1990-01-02\", \"email\": \""
                + email + "\", \"phones\": [\"" + phone + "\"], \"documents\": [{\"type\": \"passport\", \"number\": \""
                + document.substring(0, 4) + " " + document.substring(4) + "\"}]}";
        var pid = platform.create(data).pid();
        var other = platform.create(data.replace("Анна", "Мария")).pid();
        SearchApi.awaitIndexed(pid, 1);
        SearchApi.awaitIndexed(other, 1);

        var search = new SearchApi(platform);
        assertThat(search.pids(Map.of("phone", phone))).containsExactlyInAnyOrder(pid, other);
        assertThat(search.pids(Map.of("document", document))).containsExactlyInAnyOrder(pid, other);
        assertThat(search.pids(Map.of("q", phone))).containsExactlyInAnyOrder(pid, other);
        assertThat(search.pids(Map.of("q", email.toUpperCase()))).containsExactlyInAnyOrder(pid, other);
        var matches = platform.send("GET", "/v1/profiles/" + pid + "/matches", null, null, Map.of()).json()
                .path("matches");
        assertThat(matches).hasSize(1);
        assertThat(MatchesIT.reasons(matches.get(0))).contains("document", "phone", "email");

        // the index, read directly, as a dump or anyone with access to Elasticsearch would: the document as stored,
        // then the terms its number fields are searched by (term vectors, computed from the index)
        var client = TestStack.backends().elasticsearch();
        var stored = client.get(g -> g.index(alias()).id(pid.toString()), JsonNode.class);
        assertThat(stored.found()).isTrue();
        String[] inClear = {phoneDigits, phoneDigits.substring(1), document, document.substring(4), email,
                email.substring(0, email.indexOf('@'))};
        assertThat(stored.source().toString()).contains(surname).doesNotContain(inClear);
        var terms = client.termvectors(t -> t.index(stored.index()).id(pid.toString())
                .fields("phoneHashes", "documentHashes", "emailHashes"));
        assertThat(terms.termVectors()).as("the number fields are indexed")
                .containsOnlyKeys("phoneHashes", "documentHashes", "emailHashes");
        assertThat(terms.termVectors().values()).allSatisfy(field -> assertThat(field.terms()).hasSize(1));
        assertThat(terms.termVectors().toString()).doesNotContain(inClear);
    }

    private static String cyrillic(UUID random) {
        var letters = new StringBuilder();
        long bits = random.getLeastSignificantBits();
        for (int i = 0; i < 8; i++, bits >>>= 5) {
            letters.append((char) ('а' + (int) (bits & 31)));
        }
        return letters.toString();
    }

    private static String alias() {
        return TestStack.configuration().elasticsearch.indexAlias;
    }
}
