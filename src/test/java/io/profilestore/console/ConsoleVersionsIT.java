package io.profilestore.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.Browser;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A profile's versions in the console, in a real browser against the real stack: read only when asked for (and then
 * audited as a look-up), each with what made it, and what changed between any two of them, member by member.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConsoleVersionsIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    static Browser browser;

    ConsolePage page;

    @BeforeAll
    static void startBrowser() {
        browser = new Browser();
    }

    @AfterAll
    static void stopBrowser() {
        browser.close();
    }

    @BeforeEach
    void freshTab() {
        page = new ConsolePage(browser, APP.getLocalPort());
        page.freshTab();
    }

    @Test
    void anOperatorAsksForTheVersionsAndSeesWhatChangedBetweenAnyTwo() {
        var person = page.create("{\"surname\": \"Версиева\", \"firstName\": \"Ольга\", \"phones\": [\"79001112233\"]}");
        var platform = page.platform();
        assertThat(platform.patch(person.pid(), Api.etag(1), "{\"email\": \"olga@example.test\"}").status()).isEqualTo(200);
        assertThat(platform.put(person.pid(), Api.etag(2), "{\"surname\": \"Новова\", \"firstName\": \"Ольга\","
                + " \"phones\": [\"79001112233\", \"79004445566\"], \"email\": \"olga@example.test\"}").status()).isEqualTo(200);
        page.signIn(TestAuth.OPERATOR, "test-operator");

        browser.open(page.url() + "#/profile/" + person.pid());
        browser.until(d -> d.findElement(By.id("profile-title")).getText().equals("Новова Ольга"), "the profile");
        assertThat(browser.driver().findElement(By.id("versions")).isDisplayed()).as("not read before asked").isFalse();
        assertThat(versionReads(person.pid())).isZero();

        browser.find("#versions-show").click();
        var rows = browser.until(d -> {
            var found = d.findElements(By.cssSelector("#versions tr.version"));
            return found.size() == 3 ? found : null;
        }, "three versions");

        assertThat(rows).extracting(row -> row.findElements(By.tagName("td")).get(1).getText())
                .containsExactly("replaced", "patched", "created");
        assertThat(diff()).as("the newest against the one before, by default").containsExactly(
                "From version 2 to version 3:", "+ phones[1]: added, \"79004445566\"",
                "~ surname: \"Версиева\" → \"Новова\"");
        rows.get(2).findElement(By.cssSelector("input[name='version-from']")).click();
        assertThat(diff()).containsExactly("From version 1 to version 3:", "+ email: added, \"olga@example.test\"",
                "+ phones[1]: added, \"79004445566\"", "~ surname: \"Версиева\" → \"Новова\"");
        browser.script("document.getElementById('versions-box').scrollIntoView()");
        browser.screenshot("versions");
        assertThat(versionReads(person.pid())).as("the operator's read of the versions, audited").isEqualTo(1);
    }

    /**
     * An erased profile reads 404, and what it was is still there to be read: the page says no profile stands, offers
     * its versions, and shows the older ones on demand past the first page's 100.
     */
    @Test
    void anErasedProfilesVersionsAreShownAndOlderOnesOnDemand() {
        var person = page.create("{\"surname\": \"Стёртова\", \"n\": 0}");
        var platform = page.platform();
        for (int n = 1; n <= 100; n++) {
            assertThat(platform.patch(person.pid(), Api.etag(n), "{\"n\": " + n + "}").status()).isEqualTo(200);
        }
        assertThat(platform.delete(person.pid(), Api.etag(101)).status()).isEqualTo(204);
        page.signIn(TestAuth.OPERATOR, "test-operator");

        browser.open(page.url() + "#/profile/" + person.pid());
        browser.until(d -> d.findElement(By.id("status")).getText().contains("No profile stands at this id"), "told so");
        assertThat(browser.driver().findElement(By.id("user-box")).isDisplayed()).isFalse();
        browser.find("#versions-show").click();
        browser.until(d -> d.findElements(By.cssSelector("#versions tr.version")).size() == 100 ? true : null,
                "the first page");
        assertThat(browser.driver().findElement(By.cssSelector("#versions tr.version td:nth-child(2)")).getText())
                .isEqualTo("erased");
        browser.find("#versions-more").click();
        var rows = browser.until(d -> {
            var found = d.findElements(By.cssSelector("#versions tr.version"));
            return found.size() == 102 ? found : null;
        }, "every version, the older ones added");

        assertThat(rows.get(101).findElements(By.tagName("td")).get(0).getText()).isEqualTo("1");
        assertThat(rows.get(101).findElements(By.tagName("td")).get(1).getText()).isEqualTo("created");
        assertThat(browser.driver().findElement(By.id("versions-more")).isDisplayed()).isFalse();
        assertThat(diff()).as("the erase against the version before it: everything gone").containsExactly(
                "From version 101 to version 102:", "− n: removed (was 100)", "− surname: removed (was \"Стёртова\")");
        assertThat(versionReads(person.pid())).as("each page read, audited").isEqualTo(2);
    }

    /** The lines of the difference shown, each with its mark (+ added, − removed, ~ changed) as the page draws it. */
    private List<String> diff() {
        return browser.driver().findElements(By.cssSelector("#versions-diff li")).stream()
                .map(item -> prefix(item) + item.getText()).toList();
    }

    private static String prefix(WebElement item) {
        return switch (item.getAttribute("class")) {
            case "added" -> "+ ";
            case "removed" -> "− ";
            case "changed" -> "~ ";
            default -> "";
        };
    }

    private long versionReads(UUID pid) {
        var reply = page.platform().as(TestAuth.ADMIN).send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        long reads = 0;
        for (var record : reply.json().path("records")) {
            if (record.path("action").asText().equals("GET /v1/profiles/{pid}/versions")) {
                reads++;
            }
        }
        return reads;
    }
}
