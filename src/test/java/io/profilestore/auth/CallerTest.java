package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who is a machine (searches recorded after the answer) and who a person (every look-up recorded before it). */
class CallerTest {

    @Test
    void aCallerHoldingOnlyThePlatformRoleIsAMachine() {
        assertThat(new Caller("processing-platform", Caller.Kind.API_KEY, Set.of(Role.PLATFORM)).isMachine()).isTrue();
    }

    @Test
    void anyOtherRoleBesidePlatformMakesAPerson() {
        assertThat(new Caller("anna", Caller.Kind.JWT, Set.of(Role.PLATFORM, Role.OPERATOR)).isMachine()).isFalse();
        assertThat(new Caller("ops", Caller.Kind.API_KEY, Set.of(Role.PLATFORM, Role.ADMIN)).isMachine()).isFalse();
        assertThat(new Caller("anna", Caller.Kind.JWT, Set.of(Role.OPERATOR)).isMachine()).isFalse();
        assertThat(new Caller("vera", Caller.Kind.API_KEY, Set.of(Role.EDITOR)).isMachine()).isFalse();
    }

    @Test
    void noRolesOrEveryRoleIsAPerson() {
        assertThat(new Caller("nobody", Caller.Kind.JWT, Set.of()).isMachine()).isFalse();
        assertThat(Caller.ANONYMOUS.isMachine()).as("authentication off").isFalse();
    }
}
