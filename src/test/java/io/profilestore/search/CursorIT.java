package io.profilestore.search;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A search cursor is opaque and sealed: no name inside, altered or foreign cursors refused, expiry kept. */
@ExtendWith(DropwizardExtensionsSupport.class)
class CursorIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("search.cursorTtl", "4s")));

    static final String SURNAME = "Курсорова";

    SearchApi search;
    String phone;
    String otherPhone;

    @BeforeEach
    void twoSearchesOfThreePeopleEach() {
        var api = new Api(APP.getLocalPort());
        search = new SearchApi(api);
        phone = SearchApi.uniquePhone();
        otherPhone = SearchApi.uniquePhone();
        for (String number : new String[] {phone, otherPhone}) {
            for (int i = 0; i < 3; i++) {
                UUID pid = api.create("{\"surname\": \"" + SURNAME + "\", \"firstName\": \"Вера\", \"phones\": [\"" + number + "\"]}").pid();
                SearchApi.awaitIndexed(pid, 1);
            }
        }
    }

    String firstCursor(String number) {
        var first = search.search(Map.of("surname", SURNAME, "phone", number, "limit", "1"));
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        String cursor = first.json().path("nextCursor").asText();
        assertThat(cursor).as("a first page of one of three hits has a next").isNotEmpty();
        return cursor;
    }

    @Test
    void aCursorShowsNoNameAndLeadsToTheNextPage() {
        String cursor = firstCursor(phone);

        String inside = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
        assertThat(inside).doesNotContain(SURNAME.toLowerCase(Locale.ROOT)).doesNotContain("kursorova")
                .doesNotContain("вера").doesNotContain("after");
        var next = search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", cursor));
        assertThat(next.status()).as(next.body()).isEqualTo(200);
        assertThat(next.json().path("items")).hasSize(1);
    }

    @Test
    void anAlteredCursorIsRefused() {
        String cursor = firstCursor(phone);
        for (int at : new int[] {0, cursor.length() / 2, cursor.length() - 2}) {
            char[] chars = cursor.toCharArray();
            chars[at] = chars[at] == 'A' ? 'B' : 'A';
            assertProblem(search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", new String(chars))),
                    400, "invalid-query");
        }
        assertProblem(search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", cursor.substring(0, cursor.length() - 4))),
                400, "invalid-query");
    }

    @Test
    void aCursorOfAnotherSearchIsRefused() {
        String others = firstCursor(otherPhone);

        assertProblem(search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", others)),
                400, "invalid-query");
    }

    @Test
    void aCursorExpires() {
        String cursor = firstCursor(phone);

        await("the cursor to expire (search.cursorTtl 4 s)").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .until(() -> search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", cursor)).status() == 400);
        assertProblem(search.search(Map.of("surname", SURNAME, "phone", phone, "limit", "1", "cursor", cursor)), 400, "cursor-expired");
    }
}
