package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.auth.ApiKeys;
import io.profilestore.auth.AuthSettings;
import io.profilestore.auth.Role;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The audit trail names who ran a command by the credential they proved, never by the system's user. */
class CommandActorTest {

    static final String ALICE = "psk_alice-0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static final String BOB = "psk_bob-0123456789abcdefghijklmnopqrstuvwxyzABCDEF";

    static AuthSettings auth() {
        var auth = new AuthSettings();
        auth.apiKeys = List.of(new ApiKeys.Entry("alice", ApiKeys.hash(ALICE), List.of("admin", "operator"), null),
                new ApiKeys.Entry("bob", ApiKeys.hash(BOB), List.of("operator"), null));
        return auth;
    }

    @Test
    void theActorIsWhoTheCredentialProvesWithItsRoles() throws Exception {
        var actor = CommandActor.of(auth(), " " + ALICE + "\n", Role.ADMIN, "audit", "root");

        assertThat(actor).isEqualTo(new CommandActor.Actor("alice", "API_KEY", List.of("admin", "operator")));
    }

    @Test
    void noCredentialAnUnknownOneOrOneWithoutTheRoleRunsNothing() {
        assertThatThrownBy(() -> CommandActor.of(auth(), null, Role.ADMIN, "import", "root"))
                .isInstanceOf(CommandActor.Refused.class).hasMessageContaining(CommandActor.TOKEN)
                .hasMessageContaining("admin role");
        assertThatThrownBy(() -> CommandActor.of(auth(), " ", Role.ADMIN, "import", "root"))
                .isInstanceOf(CommandActor.Refused.class).hasMessageContaining(CommandActor.TOKEN);
        assertThatThrownBy(() -> CommandActor.of(auth(), ALICE + "x", Role.ADMIN, "audit", "root"))
                .isInstanceOf(CommandActor.Refused.class).hasMessageContaining("not accepted")
                .hasMessageNotContaining(ALICE);
        assertThatThrownBy(() -> CommandActor.of(auth(), BOB, Role.ADMIN, "audit", "root"))
                .isInstanceOf(CommandActor.Refused.class).hasMessage("audit: bob does not hold the admin role, which "
                        + "audit needs");
    }

    @Test
    void withAuthenticationOffTheSystemsUserIsRecordedAsACommand() throws Exception {
        var off = auth();
        off.enabled = false;

        assertThat(CommandActor.of(off, null, Role.ADMIN, "audit", "alice-on-her-laptop"))
                .isEqualTo(new CommandActor.Actor("alice-on-her-laptop", "COMMAND", List.of()));
    }
}
