package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.auth.AuthSettings;
import io.profilestore.auth.BearerAuthenticator;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.profilestore.search.NumberKeys;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer turns authentication on locally in two commands: {@code ./run-local apikey alice editor}, then
 * {@code PROFILE_STORE_AUTH_ENABLED=true ./run-local --demo}, which lets that key in and loads the demo data with a
 * key of its own.
 */
class RunLocalAuthenticationTest {

    @TempDir
    Path stack;

    final Map<String, String> properties = new HashMap<>();
    final List<String> said = new ArrayList<>();

    @Test
    void unaskedItIsOffAndSaysHowToTurnItOn() {
        String demoKey = RunLocal.authentication(null, new LocalKeys(stack), stack.resolve("profile-store"), null, true,
                properties::put, said::add);

        assertThat(demoKey).isNull();
        assertThat(properties).containsExactly(Map.entry("dw.auth.enabled", "false"));
        assertThat(said).singleElement().asString().contains("PROFILE_STORE_AUTH_ENABLED=true");
    }

    @Test
    void onItLetsInTheKeysOfApikeyAndGivesTheDemoAKeyOfItsOwn() throws Exception {
        var keys = new LocalKeys(stack);
        String output = RunLocal.apikey(keys, new String[] {"apikey", "alice", "editor"}, 18080);
        String alice = output.lines().findFirst().orElseThrow().replaceFirst(".*: ", "");

        String demoKey = RunLocal.authentication("true", keys, stack.resolve("profile-store"), null, true,
                properties::put, said::add);

        assertThat(properties).containsOnlyKeys("dw.auth.apiKeysFile");
        var service = serviceReading(properties.get("dw.auth.apiKeysFile"));
        assertThat(service.authenticate(alice)).map(Caller::roles).contains(Set.of(Role.EDITOR));
        assertThat(service.authenticate(demoKey)).map(Caller::roles).contains(Set.of(Role.PLATFORM));
        assertThat(said).singleElement().asString().contains("authentication is on: 1 API key(s)")
                .contains(keys.file().toString());
    }

    @Test
    void onWithoutAKeyItSaysHowToMakeOne() {
        String demoKey = RunLocal.authentication("true", new LocalKeys(stack), stack.resolve("profile-store"), null,
                false, properties::put, said::add);

        assertThat(demoKey).isNull();
        assertThat(said).singleElement().asString().contains("no API key").contains("./run-local apikey NAME ROLE");
    }

    @Test
    void aKeysFileThatIsNotThereStopsTheRunBeforeAnythingStarts() {
        assertThatThrownBy(() -> RunLocal.authentication("true", new LocalKeys(stack), stack.resolve("profile-store"),
                stack.resolve("missing.yml").toString(), false, properties::put, said::add))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("PROFILE_STORE_API_KEYS_FILE");
    }

    @Test
    void theStackKeepsAKeyForNumbersOfItsOwnUnlessOneIsGiven() throws Exception {
        RunLocal.numberKeys(null, new LocalKeys(stack), properties::put);
        String made = properties.get("dw.search.numberKeys");
        assertThat(NumberKeys.parse(made).ids()).containsExactly("local");
        assertThat(Files.getPosixFilePermissions(stack.resolve(LocalKeys.NUMBER_KEYS_FILE)))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

        properties.clear();
        RunLocal.numberKeys(" ", new LocalKeys(stack), properties::put);
        assertThat(properties.get("dw.search.numberKeys")).as("the same key on the next run").isEqualTo(made);

        properties.clear();
        RunLocal.numberKeys("k1:" + "a".repeat(43) + "=", new LocalKeys(stack), properties::put);
        assertThat(properties).as("the given key is the configuration's, not overridden").isEmpty();
    }

    @Test
    void apikeyPrintsTheKeyOnceAndACallThatUsesIt() throws Exception {
        String output = RunLocal.apikey(new LocalKeys(stack), new String[] {"apikey", "ops", "operator", "admin"}, 18090);

        String key = output.lines().findFirst().orElseThrow().replaceFirst(".*: ", "");
        assertThat(key).startsWith("psk_");
        assertThat(output).contains("ops (operator, admin)").contains("PROFILE_STORE_AUTH_ENABLED=true ./run-local")
                .contains("curl -s localhost:18090/v1/me -H 'Authorization: Bearer " + key + "'");
    }

    @Test
    void apikeyWithoutARoleIsRefused() {
        assertThatThrownBy(() -> RunLocal.apikey(new LocalKeys(stack), new String[] {"apikey", "alice"}, 18080))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a name and one role or more");
    }

    @Test
    void theDemoHintsCarryTheKeyWhenAuthenticationIsOn() {
        var base = URI.create("http://localhost:18080");

        assertThat(RunLocal.demoHints(3000, base, true)).contains("-H \"Authorization: Bearer $KEY\"")
                .contains("./run-local apikey");
        assertThat(RunLocal.demoHints(3000, base, false)).doesNotContain("Authorization");
    }

    private static BearerAuthenticator serviceReading(String file) {
        var settings = new AuthSettings();
        settings.apiKeysFile = file;
        return BearerAuthenticator.of(settings);
    }
}
