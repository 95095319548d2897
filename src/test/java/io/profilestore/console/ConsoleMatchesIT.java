package io.profilestore.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Browser;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * A profile's possible duplicates in the console, in a real browser against the real stack: every role sees them,
 * ranked, with their grounds in words; an editor merges one only after a confirmation that lists every profile that
 * would move, sees the merge among the user's merges and takes it back from there; an operator is offered no merge.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConsoleMatchesIT {

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

    /**
     * A person and two other users who are probably them: one shares the passport (and holds a second profile that
     * matches nothing, which a merge moves all the same), the other has the name and birth date in Latin letters.
     */
    record Duplicates(ConsolePage.Person subject, ConsolePage.Person byDocument, UUID unmatched,
            ConsolePage.Person byName, LocalDate born) {
    }

    Duplicates duplicates() {
        // a birth date and a passport no other test uses, so that only these profiles match one another
        var born = LocalDate.of(1930, 1, 1).plusDays(ThreadLocalRandom.current().nextInt(20_000));
        String passport = Long.toString(ThreadLocalRandom.current().nextLong(1_000_000_000L, 9_999_999_999L));
        var subject = page.create("{\"surname\": \"Дубликатов\", \"firstName\": \"Олег\", \"birthDate\": \"" + born
                + "\", \"documents\": [{\"type\": \"passport\", \"number\": \"" + passport + "\"}]}");
        var byDocument = page.create("{\"surname\": \"Другов\", \"firstName\": \"Иван\", \"documents\": [{\"type\":"
                + " \"passport\", \"number\": \"" + passport + "\"}]}");
        var unmatched = page.createFor(byDocument.uid(), "{\"surname\": \"Другов\", \"firstName\": \"Иван\"}");
        var byName = page.create("{\"surname\": \"Dublikatov\", \"firstName\": \"Oleg\", \"birthDate\": \"" + born + "\"}");
        return new Duplicates(subject, byDocument, unmatched, byName, born);
    }

    /** Opens the profile and waits until its possible duplicates are listed (none is a list too). */
    List<WebElement> openMatches(UUID pid) {
        browser.open(page.url() + "#/profile/" + pid);
        browser.until(d -> pid.toString().equals(d.findElement(By.id("matches")).getAttribute("data-for")),
                "the matches of " + pid);
        return browser.driver().findElements(By.cssSelector("#matches li.match"));
    }

    @Test
    void anEditorSeesTheDuplicatesRankedAndMergesOneOnlyAfterConfirmingWhatMovesThenUndoesIt() {
        var d = duplicates();
        UUID target = d.subject().uid();
        UUID source = d.byDocument().uid();
        page.signIn(TestAuth.EDITOR, "test-editor");

        var candidates = openMatches(d.subject().pid());
        assertThat(candidates).extracting(c -> c.getAttribute("data-uid"))
                .containsExactly(source.toString(), d.byName().uid().toString());
        assertThat(candidates.get(0).getText()).contains("User " + source + " · score 0.90 · grounds: the same document")
                .contains("Другов Иван · " + d.byDocument().pid()).contains("and 1 more profile(s) of this user")
                .doesNotContain(d.unmatched().toString());
        assertThat(candidates.get(1).getText())
                .contains("score 0.70 · grounds: the same name and birth date")
                .contains("Dublikatov Oleg · " + d.born() + " · " + d.byName().pid());

        // the confirmation names every profile of the candidate, the one that matched nothing too; cancel sends nothing
        mergeButton(source).click();
        assertConfirmation(source, target, d);
        browser.find("#match-confirm-cancel").click();
        browser.until(x -> !x.findElement(By.id("match-confirm")).isDisplayed(), "the confirmation closed");
        assertThat(browser.find("#status").getText()).isEqualTo("Cancelled: nothing was merged.");
        assertThat(page.profilesOf(target)).containsExactly(d.subject().pid());
        assertThat(page.profilesOf(source)).containsExactlyInAnyOrder(d.byDocument().pid(), d.unmatched());

        mergeButton(source).click();
        assertConfirmation(source, target, d);
        browser.script("document.getElementById('matches-box').scrollIntoView()");
        browser.screenshot("matches");
        browser.find("#match-confirm-merge").click();

        var result = browser.find("#match-result").getText();
        assertThat(result).startsWith("User " + source + " merged into " + target + ": ")
                .contains(d.byDocument().pid().toString()).contains(d.unmatched().toString()).endsWith(" moved.");
        assertThat(page.profilesOf(target))
                .containsExactlyInAnyOrder(d.subject().pid(), d.byDocument().pid(), d.unmatched());
        assertThat(browser.driver().findElements(By.cssSelector("#user-profiles a[href='#/profile/" + d.unmatched() + "']")))
                .hasSize(1);
        // the merged user is this user now: no longer a candidate, though the index may still list it as another
        assertThat(browser.driver().findElements(By.cssSelector("#matches li.match")))
                .extracting(c -> c.getAttribute("data-uid")).containsExactly(d.byName().uid().toString());
        // one merge, this one: the cancelled confirmation merged nothing meanwhile
        var merges = browser.driver().findElements(By.cssSelector("#merge-history li.merge"));
        assertThat(merges).hasSize(1);
        assertThat(merges.get(0).getText()).contains(source + " into " + target);

        merges.get(0).findElement(By.cssSelector("button.unmerge-source[data-source='" + source + "']")).click();
        browser.until(x -> x.findElement(By.id("unmerge-restored")).getText().contains(d.unmatched().toString()),
                "what went back");
        assertThat(page.profilesOf(target)).containsExactly(d.subject().pid());
        assertThat(page.profilesOf(source)).containsExactlyInAnyOrder(d.byDocument().pid(), d.unmatched());
    }

    WebElement mergeButton(UUID candidate) {
        return browser.find("#matches button.match-merge[data-uid='" + candidate + "']");
    }

    void assertConfirmation(UUID source, UUID target, Duplicates d) {
        assertThat(browser.find("#match-confirm-text").getText()).isEqualTo("Merge user " + source + " into " + target
                + ", this profile's user? A merge moves every profile of " + source + "; these 2 move to " + target + ":");
        assertThat(browser.driver().findElements(By.cssSelector("#match-confirm-profiles a")))
                .extracting(a -> a.getAttribute("href").replaceFirst("^.*#/profile/", ""))
                .containsExactlyInAnyOrder(d.byDocument().pid().toString(), d.unmatched().toString());
    }

    @Test
    void anOperatorSeesTheDuplicatesButNoMergeAndAProfileWithoutAnyIsToldSo() {
        var d = duplicates();
        var alone = page.create("{\"surname\": \"Одиночкина\", \"segment\": \"retail\"}");
        page.signIn(TestAuth.OPERATOR, "test-operator");

        assertThat(openMatches(d.subject().pid())).extracting(c -> c.getAttribute("data-uid"))
                .containsExactly(d.byDocument().uid().toString(), d.byName().uid().toString());
        assertThat(browser.driver().findElements(By.cssSelector("#matches button"))).as("no merge offered").isEmpty();
        assertThat(browser.driver().findElement(By.id("match-confirm")).isDisplayed()).isFalse();
        assertThat(browser.driver().findElement(By.id("matches-none")).isDisplayed()).isFalse();

        assertThat(openMatches(alone.pid())).isEmpty();
        assertThat(browser.find("#matches-none").getText()).isEqualTo("No possible duplicates.");
    }
}
