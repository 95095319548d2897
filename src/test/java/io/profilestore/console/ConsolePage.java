package io.profilestore.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.testing.Api;
import io.profilestore.testing.Browser;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.openqa.selenium.By;

/**
 * What the console's browser tests share: a fresh tab of the console, a sign-in, and the people they make and check
 * through the API (as a platform, a machine, so that none of it is the console's doing).
 */
final class ConsolePage {

    record Person(UUID pid, UUID uid) {
    }

    private final Browser browser;
    private final int port;
    private final Api platform;

    ConsolePage(Browser browser, int port) {
        this.browser = browser;
        this.port = port;
        this.platform = new Api(port).as(TestAuth.PLATFORM);
    }

    Api platform() {
        return platform;
    }

    String url() {
        return "http://127.0.0.1:" + port + "/console/";
    }

    /** The console's page with nothing of an earlier test: no key, no language chosen. */
    void freshTab() {
        browser.open(url());
        browser.script("sessionStorage.clear(); localStorage.clear();");
        browser.open(url() + "#/search/");
        browser.driver().navigate().refresh();
    }

    void signIn(String key, String expectedName) {
        browser.find("#api-key").sendKeys(key);
        browser.find("#sign-in").click();
        browser.until(d -> d.findElement(By.id("who")).getText().contains(expectedName), "signed in as " + expectedName);
    }

    /** A profile of a new user, once searches see it. */
    Person create(String data) {
        var reply = platform.create(data);
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        SearchApi.awaitIndexed(reply.pid(), 1);
        return new Person(reply.pid(), UUID.fromString(reply.json().path("uid").asText()));
    }

    /** Another profile of this user, once searches see it. */
    UUID createFor(UUID uid, String data) {
        var reply = platform.createFor(uid, data);
        assertThat(reply.status()).as(reply.body()).isEqualTo(201);
        SearchApi.awaitIndexed(reply.pid(), 1);
        return reply.pid();
    }

    /** The user's profiles as the service holds them now. */
    List<UUID> profilesOf(UUID uid) {
        var pids = new ArrayList<UUID>();
        for (JsonNode p : platform.user(uid).json().path("profiles")) {
            pids.add(UUID.fromString(p.path("pid").asText()));
        }
        return pids;
    }
}
