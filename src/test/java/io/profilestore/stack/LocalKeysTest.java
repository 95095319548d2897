package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.auth.ApiKeys;
import io.profilestore.auth.AuthSettings;
import io.profilestore.auth.BearerAuthenticator;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./run-local apikey NAME ROLE...} makes a key a newcomer can use at once: no jar, no configuration file of
 * their own; a run with authentication on lets it in, and lets in the run's own key for the demo data.
 */
class LocalKeysTest {

    @TempDir
    Path stack;

    @Test
    void aKeyItMakesIsLetInWithItsNameAndRolesAndOnlyItsHashIsKept() throws Exception {
        var keys = new LocalKeys(stack);

        String key = keys.add("alice", List.of("editor", "admin"));

        assertThat(key).startsWith("psk_");
        assertThat(Files.readString(keys.file())).doesNotContain(key).contains("alice").contains(ApiKeys.hash(key));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.file()))).isEqualTo("rw-------");
        var caller = serviceReading(keys.file()).authenticate(key);
        assertThat(caller).map(Caller::name).contains("alice");
        assertThat(caller.orElseThrow().roles()).isEqualTo(Set.of(Role.EDITOR, Role.ADMIN));
    }

    @Test
    void aSecondKeyOfTheSameNameReplacesTheFirstAndOthersStay() throws Exception {
        var keys = new LocalKeys(stack);
        String bob = keys.add("bob", List.of("platform"));
        String first = keys.add("alice", List.of("operator"));

        String second = keys.add("alice", List.of("operator"));

        var service = serviceReading(keys.file());
        assertThat(service.authenticate(first)).isEmpty();
        assertThat(service.authenticate(second)).map(Caller::name).contains("alice");
        assertThat(service.authenticate(bob)).map(Caller::name).contains("bob");
        assertThat(keys.entries()).extracting(ApiKeys.Entry::name).containsExactly("bob", "alice");
    }

    @Test
    void anUnknownRoleNoRoleOrNoNameIsRefusedAndNothingIsWritten() {
        var keys = new LocalKeys(stack);

        assertThatThrownBy(() -> keys.add("alice", List.of("Admin"))).hasMessageContaining("unknown role 'Admin'");
        assertThatThrownBy(() -> keys.add("alice", List.of())).hasMessageContaining("needs a role");
        assertThatThrownBy(() -> keys.add(" ", List.of("editor"))).hasMessageContaining("needs a name");
        assertThat(keys.file()).doesNotExist();
    }

    @Test
    void aRunLetsInTheKeysMadeThoseOfTheConfiguredFileAndItsOwnDemoKey() throws Exception {
        var keys = new LocalKeys(stack);
        String alice = keys.add("alice", List.of("editor"));
        var other = new LocalKeys(stack.resolve("elsewhere"));
        String platform = other.add("processing-platform", List.of("platform"));

        var run = keys.forRun(stack.resolve("profile-store/api-keys-of-this-run.yml"), other.file().toString(), true);

        assertThat(run.given()).isEqualTo(2);
        var service = serviceReading(run.file());
        assertThat(service.authenticate(alice)).map(Caller::name).contains("alice");
        assertThat(service.authenticate(platform)).map(Caller::name).contains("processing-platform");
        assertThat(service.authenticate(run.demoKey())).map(Caller::roles).contains(Set.of(Role.PLATFORM));
        assertThat(keys.entries()).as("the run's own key is the run's alone").extracting(ApiKeys.Entry::name)
                .containsExactly("alice");
    }

    @Test
    void aRunWithoutKeysOrDemoLetsInNobody() throws Exception {
        var run = new LocalKeys(stack).forRun(stack.resolve("run.yml"), null, false);

        assertThat(run.given()).isZero();
        assertThat(run.demoKey()).isNull();
        assertThat(serviceReading(run.file()).authenticate("psk_anything")).isEmpty();
    }

    /** The service's own reading of a keys file, as auth.apiKeysFile. */
    private static BearerAuthenticator serviceReading(Path file) {
        var settings = new AuthSettings();
        settings.apiKeysFile = file.toString();
        return BearerAuthenticator.of(settings);
    }
}
