package io.profilestore.resources;

import io.dropwizard.auth.Auth;
import io.profilestore.api.Problem;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.profilestore.resources.problems.ProblemException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * Who the token is: {@code GET /v1/me}, for any caller; {@code GET /v1/console/session}, the console's sign-in,
 * which admits people only. The console is where a person pages through everyone; a machine's credential (one
 * made for a client system) has no business there, so the service, not the page, refuses it.
 */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class CallerResource {

    public record Me(String name, Caller.Kind kind, List<String> roles) {
        static Me of(Caller caller) {
            return new Me(caller.name(), caller.kind(), caller.roles().stream().map(Role::roleName).sorted().toList());
        }
    }

    @GET
    @Path("me")
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public Me me(@Auth Caller caller) {
        return Me.of(caller);
    }

    @GET
    @Path("console/session")
    // platform is let through the role check so that it is told why it may not, rather than a bare 403 forbidden
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public Me consoleSession(@Auth Caller caller) {
        if (caller.isMachine()) {
            throw new ProblemException(Problem.of(403, "machine-credential", "Forbidden",
                    "This is a machine credential (a client system's key or token); the console is for people: "
                            + "ask for an operator, editor or admin key"));
        }
        return Me.of(caller);
    }
}
