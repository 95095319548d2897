package io.profilestore.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** A person's credential is one with a role other than platform's, the one role of machines. */
class CallerTest {

    static Caller holding(Role... roles) {
        return new Caller("someone", Caller.Kind.API_KEY, Set.of(roles));
    }

    @Test
    void aCredentialOfPlatformAloneIsAMachines() {
        assertThat(holding(Role.PLATFORM).isPerson()).isFalse();
        assertThat(holding().isPerson()).isFalse();
    }

    @Test
    void anyOtherRoleMakesItAPersons() {
        assertThat(holding(Role.OPERATOR).isPerson()).isTrue();
        assertThat(holding(Role.EDITOR).isPerson()).isTrue();
        assertThat(holding(Role.ADMIN).isPerson()).isTrue();
        assertThat(holding(Role.PLATFORM, Role.ADMIN).isPerson()).isTrue();
        assertThat(Caller.ANONYMOUS.isPerson()).as("authentication off: every role").isTrue();
    }
}
