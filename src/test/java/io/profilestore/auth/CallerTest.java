package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Who is a machine (its look-ups recorded just after the answer) and who a person (every look-up recorded before it):
 * a credential made for a machine says so; roles never make one.
 */
class CallerTest {

    @Test
    void aCredentialMadeForAMachineIsAMachine() {
        assertThat(Caller.machine("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM)).isMachine())
                .isTrue();
    }

    @Test
    void holdingOnlyThePlatformRoleDoesNotMakeAMachine() {
        assertThat(new Caller("svc-or-person", Caller.Kind.JWT, Set.of(Role.PLATFORM)).isMachine()).isFalse();
        assertThat(new Caller("leaked-into-ci", Caller.Kind.API_KEY, Set.of(Role.PLATFORM)).isMachine()).isFalse();
    }

    @Test
    void peopleOfEveryRoleAreNotMachines() {
        assertThat(new Caller("anna", Caller.Kind.JWT, Set.of(Role.PLATFORM, Role.OPERATOR)).isMachine()).isFalse();
        assertThat(new Caller("vera", Caller.Kind.API_KEY, Set.of(Role.EDITOR)).isMachine()).isFalse();
        assertThat(new Caller("nobody", Caller.Kind.JWT, Set.of()).isMachine()).isFalse();
        assertThat(Caller.ANONYMOUS.isMachine()).as("authentication off").isFalse();
    }
}
