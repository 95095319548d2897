package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** An API key is a machine's only when its entry says so, and an entry that leaves it to be guessed is refused. */
class ApiKeysTest {

    private static final String TOKEN = "psk_api-keys-test-0123456789abcdefghijklmnopqrstuvw";

    @Test
    void aKeyMadeForAMachineAuthenticatesAMachine() {
        var keys = new ApiKeys(List.of(new ApiKeys.Entry("processing-platform", ApiKeys.hash(TOKEN), List.of("platform"),
                true)));

        assertThat(keys.authenticate(TOKEN)).hasValueSatisfying(caller -> {
            assertThat(caller.isMachine()).isTrue();
            assertThat(caller.roles()).containsExactly(Role.PLATFORM);
        });
    }

    @Test
    void aPersonsKeyHoldingOnlyPlatformAuthenticatesAPerson() {
        var keys = new ApiKeys(List.of(new ApiKeys.Entry("data-steward-script", ApiKeys.hash(TOKEN),
                List.of("platform"), false)));

        assertThat(keys.authenticate(TOKEN)).hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }

    @Test
    void aKeyHoldingOnlyPlatformMustSayWhetherItIsAMachine() {
        var unsaid = new ApiKeys.Entry("processing-platform", ApiKeys.hash(TOKEN), List.of("platform"), null);

        assertThatThrownBy(() -> new ApiKeys(List.of(unsaid)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("processing-platform")
                .hasMessageContaining("machine: true");
    }

    @Test
    void aPersonsRolesNeedNotSayIt() {
        var keys = new ApiKeys(List.of(new ApiKeys.Entry("vera", ApiKeys.hash(TOKEN), List.of("operator"), null)));

        assertThat(keys.authenticate(TOKEN)).hasValueSatisfying(caller -> assertThat(caller.isMachine()).isFalse());
    }

    @Test
    void aMachinesKeyHoldsThePlatformRoleAlone() {
        var both = new ApiKeys.Entry("platform-with-admin", ApiKeys.hash(TOKEN), List.of("platform", "admin"), true);

        assertThatThrownBy(() -> new ApiKeys(List.of(both)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("platform-with-admin")
                .hasMessageContaining("platform role alone");
    }

    @Test
    void wherePeoplesKeysAreRefusedOnlyMachinesKeysLetTheirHoldersIn() {
        String person = "psk_api-keys-test-person-0123456789abcdefghijklmnopq";
        var entries = List.of(
                new ApiKeys.Entry("processing-platform", ApiKeys.hash(TOKEN), List.of("platform"), true),
                new ApiKeys.Entry("vera", ApiKeys.hash(person), List.of("operator"), null),
                new ApiKeys.Entry("data-steward-script", ApiKeys.hash(person + "x"), List.of("platform"), false));

        var machinesOnly = new ApiKeys(entries, false);

        assertThat(machinesOnly.authenticate(TOKEN)).hasValueSatisfying(c -> assertThat(c.isMachine()).isTrue());
        assertThat(machinesOnly.authenticate(person)).isEmpty();
        assertThat(machinesOnly.authenticate(person + "x")).isEmpty();
        assertThat(machinesOnly.peoplesKeys()).isEqualTo(2);
        assertThat(new ApiKeys(entries, true).authenticate(person)).isPresent();
    }
}
