package io.profilestore.resources;

import io.dropwizard.auth.Auth;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /v1/me}: who the token is, and its roles; the console shows each role what it may do. */
@Path("/v1/me")
@Produces(MediaType.APPLICATION_JSON)
public class CallerResource {

    public record Me(String name, Caller.Kind kind, List<String> roles) {
    }

    @GET
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.ADMIN_NAME})
    public Me me(@Auth Caller caller) {
        return new Me(caller.name(), caller.kind(), caller.roles().stream().map(Role::roleName).sorted().toList());
    }
}
