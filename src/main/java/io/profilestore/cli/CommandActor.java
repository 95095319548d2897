package io.profilestore.cli;

import io.profilestore.auth.AuthSettings;
import io.profilestore.auth.BearerAuthenticator;
import io.profilestore.auth.Role;
import java.util.List;

/**
 * Who runs a command that reads or writes people's data ({@code audit}, {@code import}), as the audit trail records
 * it: the person or machine a credential proves, never the operating system's user (in the image always
 * {@code profile-store}, and anyone's to change with {@code -Duser.name}). The credential is an API key or an access
 * token, given in {@value #TOKEN} (an environment variable: a command line is visible to {@code ps}), checked as the
 * API checks it and holding the role the API asks for the same thing. With authentication off (a local run, on this
 * machine only) the system's user is recorded, as {@code COMMAND}.
 */
public final class CommandActor {

    /** The variable that carries the credential. */
    public static final String TOKEN = "PROFILE_STORE_COMMAND_TOKEN";

    /** Who ran the command, as a record of the trail names a caller. */
    public record Actor(String name, String kind, List<String> roles) {
    }

    /** Why a command is not run: its message says what to give. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private CommandActor() {
    }

    /**
     * @param token the credential, {@value #TOKEN}'s value (null or blank: none)
     * @param needed the role the command needs, as the API's route for the same thing does
     */
    public static Actor of(AuthSettings auth, String token, Role needed, String command, String systemUser)
            throws Refused {
        if (!auth.enabled) {
            return new Actor(systemUser, "COMMAND", List.of());
        }
        if (token == null || token.isBlank()) {
            throw new Refused(command + ": give your API key or access token in " + TOKEN + " (the audit trail records "
                    + "who runs " + command + "; it needs the " + needed.roleName() + " role)");
        }
        var caller = BearerAuthenticator.of(auth).authenticate(token.strip());
        if (caller.isEmpty()) {
            throw new Refused(command + ": the credential in " + TOKEN
                    + " is not accepted (unknown, revoked or expired)");
        }
        if (!caller.get().has(needed)) {
            throw new Refused(command + ": " + caller.get().name() + " does not hold the " + needed.roleName()
                    + " role, which " + command + " needs");
        }
        return new Actor(caller.get().name(), caller.get().kind().name(),
                caller.get().roles().stream().map(Role::roleName).sorted().toList());
    }
}
