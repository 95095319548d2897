package io.profilestore.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack;
import io.profilestore.testing.Api;
import io.profilestore.testing.Browser;
import io.profilestore.testing.FakeOidcProvider;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

/**
 * The operator console in a real browser (Debian's Chromium) against the real stack: each role of people signs in,
 * finds people as they would type them, opens, edits, merges, each shown only what it may do; a stale edit is
 * refused, never overwritten; a machine's key is refused at sign-in.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConsoleIT {

    static final FakeOidcProvider PROVIDER = new FakeOidcProvider("oidc-operator", List.of("operator"));

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("elasticsearch.requestTimeout", "3s"),
                    ConfigOverride.config("console.oidc.authorizationEndpoint", PROVIDER.base() + "/authorize"),
                    ConfigOverride.config("console.oidc.tokenEndpoint", PROVIDER.base() + "/token"),
                    ConfigOverride.config("console.oidc.clientId", FakeOidcProvider.CLIENT_ID)));

    static Browser browser;

    ConsolePage page;
    Api platform;

    @BeforeAll
    static void startBrowser() {
        browser = new Browser();
    }

    @AfterAll
    static void stopBrowser() {
        try {
            browser.close();
        } finally {
            PROVIDER.close();
        }
    }

    @BeforeEach
    void freshTab() {
        page = new ConsolePage(browser, APP.getLocalPort());
        platform = page.platform();
        page.freshTab();
    }

    String console() {
        return page.url();
    }

    ConsolePage.Person create(String data) {
        return page.create(data);
    }

    void signIn(String key, String expectedName) {
        page.signIn(key, expectedName);
    }

    /** Types into the search box as an operator would, and waits for the hits to show this profile. */
    List<WebElement> typeAndFind(String typed, UUID pid) {
        var box = browser.find("#q");
        box.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        box.sendKeys(typed);
        return browser.until(d -> {
            if (!typed.equals(d.findElement(By.id("results")).getAttribute("data-for"))) {
                return null;
            }
            var links = d.findElements(By.cssSelector("#results a[href='#/profile/" + pid + "']"));
            return links.isEmpty() || !links.get(0).isDisplayed() ? null : d.findElements(By.cssSelector("#results tr.hit"));
        }, "a hit for " + pid + " after typing " + typed);
    }

    static String rowOf(List<WebElement> rows, UUID pid) {
        return rows.stream().filter(r -> !r.findElements(By.cssSelector("a[href='#/profile/" + pid + "']")).isEmpty())
                .findFirst().orElseThrow().getText();
    }

    @Test
    void anOperatorFindsAPersonAsTheyTypeIt() {
        String phone = SearchApi.uniquePhone();
        String digits = phone.replaceAll("\\D", "");
        String document = String.format("%010d", ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L));
        var ivanov = create("{\"surname\": \"Иванов\", \"firstName\": \"Пётр\", \"patronymic\": \"Сергеевич\","
                + " \"birthDate\": \"1980-02-02\", \"phones\": [\"" + phone + "\"], \"documents\": [\"" + document + "\"]}");
        String otherPhone = SearchApi.uniquePhone();
        var kuznetsova = create("{\"surname\": \"Кузнецова\", \"firstName\": \"Анна\", \"phones\": [\"" + otherPhone + "\"]}");
        browser.screenshot("sign-in");

        signIn(TestAuth.OPERATOR, "test-operator");

        assertThat(rowOf(typeAndFind("Bdfyjd " + digits, ivanov.pid()), ivanov.pid()))
                .contains("Иванов Пётр Сергеевич").contains("typed with the Latin layout on");
        String spaced = "8 " + digits.substring(1, 4) + " " + digits.substring(4, 7) + " " + digits.substring(7, 9) + " " + digits.substring(9);
        assertThat(rowOf(typeAndFind("kuznetsova anna " + otherPhone, kuznetsova.pid()), kuznetsova.pid()))
                .contains("Кузнецова Анна").contains("transliterated from Latin");
        typeAndFind(spaced, ivanov.pid());
        typeAndFind("Иванов 02.02.1980 " + document.substring(0, 2) + " " + document.substring(2, 4) + " " + document.substring(4),
                ivanov.pid());
        typeAndFind("Иванов П. С. " + digits, ivanov.pid());
        typeAndFind(ivanov.pid().toString(), ivanov.pid());
        typeAndFind("Иванов Пётр " + spaced, ivanov.pid());
        assertThat(browser.find("#reading").getText()).contains("Иванов");
        String url = browser.driver().getCurrentUrl();
        assertThat(url.substring(0, url.indexOf('#'))).as("search terms only in the fragment").doesNotContain("Иванов")
                .doesNotContain("%D0").doesNotContain(digits.substring(1, 4));
        browser.screenshot("search");
        // the console's look-ups are audited, and asked in a body: no search term in a URL
        var trail = platform.as(TestAuth.ADMIN).send("GET", "/v1/audit?pid=" + ivanov.pid(), null, null, Map.of()).json();
        var searches = new ArrayList<String>();
        trail.path("records").forEach(r -> {
            if (r.path("actor").asText().equals("test-operator")) {
                searches.add(r.path("action").asText());
            }
        });
        assertThat(searches).isNotEmpty().containsOnly("POST /v1/search");

        // from the keyboard alone: Enter in the box goes to the first hit, Enter on it opens it
        typeAndFind("Иванов Пётр Сергеевич " + digits, ivanov.pid());
        browser.find("#q").sendKeys(Keys.ENTER);
        browser.until(d -> ("#/profile/" + ivanov.pid()).equals(d.switchTo().activeElement().getAttribute("href")
                .replaceFirst("^.*(#/profile/)", "$1")), "the first hit focused");
        browser.driver().switchTo().activeElement().sendKeys(Keys.ENTER);
        browser.until(d -> d.findElement(By.id("profile-title")).getText().equals("Иванов Пётр Сергеевич"), "the profile");
        browser.until(d -> !d.findElements(By.cssSelector("#user-profiles a[href='#/profile/" + ivanov.pid() + "']")).isEmpty(),
                "the user's profiles");
        assertThat(browser.driver().findElement(By.id("edit-box")).isDisplayed()).as("an operator does not edit").isFalse();
        assertThat(browser.driver().findElement(By.id("merge-box")).isDisplayed()).as("nor merge").isFalse();
        assertThat(browser.driver().findElement(By.id("profile-audit-box")).isDisplayed()).as("nor read the trail").isFalse();
        assertThat(browser.driver().findElement(By.id("nav-audit")).isDisplayed()).isFalse();
        browser.screenshot("profile");

        browser.find("#lang").click();
        browser.find("#nav-search").click();
        assertThat(browser.find("#q").getAttribute("placeholder")).startsWith("Фамилия, имя");
    }

    @Test
    void aMachinesKeyIsRefusedAtSignInAndToldWhy() {
        browser.find("#api-key").sendKeys(TestAuth.PLATFORM);
        browser.find("#sign-in").click();

        browser.until(d -> d.findElement(By.id("status")).getText().equals("This is a machine credential (a client"
                + " system's key or token); the console is for people: ask for an operator, editor or admin key"), "the refusal explained");
        assertThat(browser.find("#view-sign-in").isDisplayed()).isTrue();
        assertThat(browser.driver().findElement(By.id("view-search")).isDisplayed()).as("no search box").isFalse();
        assertThat(browser.driver().findElement(By.id("nav")).isDisplayed()).isFalse();
        assertThat(browser.script("return sessionStorage.getItem('profile-store.token')")).as("the key forgotten").isNull();
    }

    @Test
    void anEditorsEditIsSavedAndAStaleOneIsRefusedNeverOverwriting() {
        var person = create("{\"surname\": \"Редактова\", \"firstName\": \"Нина\"}");
        signIn(TestAuth.EDITOR, "test-editor");
        browser.open(console() + "#/profile/" + person.pid());
        browser.until(d -> d.findElement(By.id("profile-title")).getText().equals("Редактова Нина"), "the profile");
        // the data steward edits, merges and unmerges; the audit trail is the admin's
        assertThat(browser.find("#edit-box").isDisplayed()).isTrue();
        assertThat(browser.find("#merge-box").isDisplayed()).isTrue();
        assertThat(browser.driver().findElement(By.id("profile-audit-box")).isDisplayed()).isFalse();
        assertThat(browser.driver().findElement(By.id("nav-audit")).isDisplayed()).isFalse();

        edit("{\"surname\": \"Редактова\", \"firstName\": \"Нина\", \"email\": \"nina@example.test\"}");
        browser.until(d -> d.findElement(By.id("status")).getText().contains("version 2"), "saved as version 2");
        assertThat(platform.get(person.pid()).json().path("data").path("email").asText()).isEqualTo("nina@example.test");

        // someone else changes it while the page still shows version 2
        assertThat(platform.put(person.pid(), Api.etag(2), "{\"surname\": \"Редактова\", \"firstName\": \"Нина\", \"note\": \"theirs\"}")
                .status()).isEqualTo(200);
        edit("{\"surname\": \"Редактова\", \"firstName\": \"Нина\", \"note\": \"mine\"}");

        browser.until(d -> d.findElement(By.id("conflict")).isDisplayed(), "the conflict shown");
        assertThat(browser.find("#conflict-text").getText()).contains("version 3");
        assertThat(browser.find("#conflict-current").getText()).contains("theirs");
        assertThat(browser.find("#edit-data").getAttribute("value")).as("the operator's text is kept").contains("mine");
        assertThat(platform.get(person.pid()).json().path("data").path("note").asText()).as("never overwritten").isEqualTo("theirs");
        browser.screenshot("stale-edit");
    }

    void edit(String data) {
        var area = browser.find("#edit-data");
        area.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        area.sendKeys(data);
        browser.find("#save").click();
    }

    @Test
    void anAdminMergesUnmergesAndSeesWhoLookedAtThePerson() {
        var kept = create("{\"surname\": \"Слиянова\", \"firstName\": \"Вера\"}");
        var merged = create("{\"surname\": \"Слиянова\", \"firstName\": \"Вера\", \"birthDate\": \"1990-01-01\"}");
        assertThat(platform.as(TestAuth.OPERATOR).get(kept.pid()).status()).isEqualTo(200);

        // whoever merges finds and reads the people merged: an admin's key alone searches and opens them (audited)
        signIn(TestAuth.ADMIN, "test-admin");
        typeAndFind("Слиянова Вера", kept.pid());
        browser.open(console() + "#/profile/" + kept.pid());
        browser.until(d -> d.findElement(By.id("merge-box")).isDisplayed(), "merge and unmerge shown");
        assertThat(browser.driver().findElement(By.id("edit-box")).isDisplayed()).as("an admin does not edit").isFalse();
        browser.until(d -> d.findElements(By.cssSelector("#profile-audit tr.audit-record")).stream()
                .anyMatch(r -> r.getText().contains("test-operator") && r.getText().contains("GET /v1/profiles/{pid}")),
                "the operator's look-up in the audit trail");

        browser.find("#merge-sources").sendKeys(merged.uid().toString());
        browser.find("#merge").click();
        browser.until(d -> !d.findElements(By.cssSelector("#user-profiles a[href='#/profile/" + merged.pid() + "']")).isEmpty(),
                "the merged user's profile among this user's");
        assertThat(profilesOf(kept.uid())).containsExactlyInAnyOrder(kept.pid(), merged.pid());
        browser.script("document.getElementById('user-line').scrollIntoView()");
        browser.screenshot("admin");

        // the merged user's uid, typed into the search box, leads to its master and the profiles now there
        browser.find("#nav-search").click();
        browser.find("#q").sendKeys(merged.uid().toString());
        browser.until(d -> d.findElement(By.id("merged-line")).getText()
                .equals("User " + merged.uid() + " was merged into this master, " + kept.uid() + "."), "the master shown");
        assertThat(browser.driver().findElements(By.cssSelector("#merged-profiles a[href='#/profile/" + merged.pid() + "']"))).hasSize(1);
        browser.open(console() + "#/profile/" + kept.pid());
        browser.find("#unmerge-source").sendKeys(merged.uid().toString());
        browser.find("#unmerge").click();
        browser.until(d -> d.findElements(By.cssSelector("#user-profiles a[href='#/profile/" + merged.pid() + "']")).isEmpty(),
                "the profile gone back to its user");
        assertThat(profilesOf(kept.uid())).containsExactly(kept.pid());

        browser.find("#nav-audit").click();
        browser.find("#audit-actor").sendKeys("test-admin");
        browser.find("#audit-search").click();
        browser.until(d -> d.findElements(By.cssSelector("#audit tr.audit-record")).stream()
                .anyMatch(r -> r.getText().contains("/unmerge")), "the admin's unmerge in the trail");
    }

    /**
     * A merged into B, B into C; the admin opens C's person, reads its merges, takes A out of B from the history (the
     * earlier merge, though C holds everything now) and is told what went back and what stayed behind, with why.
     */
    @Test
    void anAdminReadsAUsersMergesAndUndoesAnEarlierOneSeeingWhatStayedBehind() {
        var a = create("{\"surname\": \"Историева\", \"firstName\": \"Анна\"}");
        var erased = platform.createFor(a.uid(), "{\"surname\": \"Историева\", \"firstName\": \"Анна\", \"n\": 2}").pid();
        var b = create("{\"surname\": \"Историева\", \"firstName\": \"Белла\"}");
        var c = create("{\"surname\": \"Историева\", \"firstName\": \"Вера\"}");
        var admin = platform.as(TestAuth.ADMIN);
        assertThat(admin.merge(b.uid(), a.uid()).status()).isEqualTo(200);
        assertThat(admin.merge(c.uid(), b.uid()).status()).isEqualTo(200);
        assertThat(platform.delete(erased, Api.etag(3)).status()).as("erased after both merges").isEqualTo(204);

        signIn(TestAuth.ADMIN, "test-admin");
        browser.open(console() + "#/profile/" + c.pid());
        browser.until(d -> d.findElements(By.cssSelector("#merge-history li.merge")).size() == 2, "both merges listed");
        var earlier = browser.find("#merge-history li.merge:nth-child(2)");
        assertThat(earlier.getText()).contains(a.uid() + " into " + b.uid())
                .contains(a.uid() + " brought ").contains(a.pid().toString()).contains(erased.toString());

        earlier.findElement(By.cssSelector("button.unmerge-source[data-source='" + a.uid() + "']")).click();

        browser.until(d -> d.findElement(By.id("unmerge-result")).isDisplayed()
                && d.findElement(By.id("unmerge-restored")).getText().contains(a.pid().toString()), "what went back");
        assertThat(browser.find("#unmerge-restored").getText()).isEqualTo("Back under " + a.uid() + ": " + a.pid() + ".");
        assertThat(browser.driver().findElements(By.cssSelector("#unmerge-skipped li.skipped"))).extracting(e -> e.getText())
                .containsExactly(erased + ": erased since the merge");
        assertThat(profilesOf(c.uid())).containsExactlyInAnyOrder(b.pid(), c.pid());
        assertThat(profilesOf(a.uid())).containsExactly(a.pid());
        browser.until(d -> d.findElement(By.cssSelector("#merge-history li.merge:nth-child(2)")).getText()
                .contains(a.uid() + " taken out again"), "the history shows the unmerge");
        browser.script("document.getElementById('unmerge-result').scrollIntoView()");
        browser.screenshot("merge-history");
    }

    @Test
    void aConflictIsToldWhatItMeans() {
        var person = create("{\"surname\": \"Отказова\", \"firstName\": \"Ада\"}");
        var elsewhere = create("{\"surname\": \"Отказова\", \"firstName\": \"Ада\", \"birthDate\": \"1970-05-06\"}");
        var merged = create("{\"surname\": \"Отказова\", \"firstName\": \"Ада\", \"birthDate\": \"1971-05-06\"}");
        assertThat(platform.as(TestAuth.ADMIN).merge(elsewhere.uid(), merged.uid()).status()).isEqualTo(200);

        // merging a user merged elsewhere already: the 409 says which master it went to
        signIn(TestAuth.ADMIN, "test-admin");
        browser.open(console() + "#/profile/" + person.pid());
        browser.until(d -> d.findElement(By.id("profile-title")).getText().equals("Отказова Ада"), "the profile read");
        browser.find("#merge-sources").sendKeys(merged.uid().toString());
        browser.find("#merge").click();
        browser.until(d -> d.findElement(By.id("status")).getText().equals("This conflicts with the current state (user "
                + merged.uid() + " is merged into " + elsewhere.uid() + " already): look at it again before you retry."),
                "the 409 explained");
        assertThat(profilesOf(person.uid())).containsExactly(person.pid());
    }

    List<UUID> profilesOf(UUID uid) {
        return page.profilesOf(uid);
    }

    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void withElasticsearchDownSearchSaysSoAndProfilesStillOpen() {
        var person = create("{\"surname\": \"Простоева\", \"firstName\": \"Ия\"}");
        signIn(TestAuth.OPERATOR, "test-operator");
        try (var outage = TestStack.stack().outage(LocalStack.Service.ELASTICSEARCH)) {
            browser.find("#q").sendKeys("Простоева");
            browser.until(d -> d.findElement(By.id("status")).getText()
                    .equals("Elasticsearch is down: search is unavailable, profiles are still readable."), "the outage explained");
            browser.screenshot("search-unavailable");
            browser.open(console() + "#/profile/" + person.pid());
            browser.until(d -> d.findElement(By.id("profile-title")).getText().equals("Простоева Ия"), "the profile read");
        }
    }

    /**
     * The index learns of a merge later than Cassandra (seconds on a busy day, longer while RabbitMQ is down): a
     * merged user's uid typed in that time still finds the profile under its old user. The console asks the user
     * itself, so the operator is told of the master all the same (CI once saw the old hit and no master).
     */
    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void aMergedUsersUidLeadsToItsMasterBeforeTheIndexKnowsOfTheMerge() {
        var kept = create("{\"surname\": \"Опоздалова\", \"firstName\": \"Ада\"}");
        var merged = create("{\"surname\": \"Опоздалова\", \"firstName\": \"Ада\", \"birthDate\": \"1991-02-03\"}");
        signIn(TestAuth.OPERATOR, "test-operator");
        try (var outage = TestStack.stack().outage(LocalStack.Service.RABBITMQ)) {
            assertThat(platform.as(TestAuth.ADMIN).merge(kept.uid(), merged.uid()).status()).isEqualTo(200);

            typeAndFind(merged.uid().toString(), merged.pid()); // the index: still under its old user
            browser.until(d -> d.findElement(By.id("merged-line")).getText()
                    .equals("User " + merged.uid() + " was merged into this master, " + kept.uid() + "."), "the master shown");
            assertThat(browser.driver().findElements(By.cssSelector("#merged-profiles a[href='#/profile/" + kept.pid() + "']")))
                    .hasSize(1);
        }
        // and the index catches up once RabbitMQ is back (the profile's version after the merge)
        SearchApi.awaitIndexed(merged.pid(), platform.get(merged.pid()).json().path("version").asLong(), Duration.ofSeconds(90));
    }

    @Test
    void aWrongKeyIsToldSoAndTheOrganisationsProviderSignsIn() {
        browser.find("#api-key").sendKeys("psk_not-a-key-of-ours-0123456789abcdefghijklmnop");
        browser.find("#sign-in").click();
        browser.until(d -> d.findElement(By.id("status")).getText().contains("sign in again"), "the 401 explained");
        assertThat(browser.find("#view-sign-in").isDisplayed()).isTrue();

        browser.find("#sign-in-oidc").click();
        browser.until(d -> d.findElement(By.id("who")).getText().contains("oidc-operator"), "signed in by the provider");
        assertThat(browser.driver().getCurrentUrl()).as("the code is gone from the address").doesNotContain("code=");
        assertThat(browser.script("return sessionStorage.getItem('profile-store.token')")).asString().startsWith("ey");
        assertThat(browser.find("#q").isDisplayed()).isTrue();
    }
}
