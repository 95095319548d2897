package io.profilestore.resources;

import io.profilestore.api.Problem;
import io.profilestore.api.ProfileVersion;
import io.profilestore.api.ProfileVersions;
import io.profilestore.audit.AuditContext;
import io.profilestore.auth.Role;
import io.profilestore.history.ProfileHistory;
import io.profilestore.profiles.ProfileService;
import io.profilestore.resources.problems.ProblemException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * A profile's history (docs/history.md): its versions, newest first, and one of them, readable by every role that may
 * read the profile and audited as a read of the person (the answer names the pid); and its purge, by an admin. The
 * profile as it stood at a moment is {@code GET /v1/profiles/{pid}?asOf=} ({@link ProfileResource}).
 */
@Path("/v1/profiles/{pid}/versions")
@Produces(MediaType.APPLICATION_JSON)
public class ProfileHistoryResource {

    private final ProfileHistory history;
    private final ProfileService profiles;

    public ProfileHistoryResource(ProfileHistory history, ProfileService profiles) {
        this.history = history;
        this.profiles = profiles;
    }

    /**
     * Purges every version of a profile, for the right to erasure: an erased profile's; one that stands only with
     * {@code erase=true} and If-Match naming its version, which erases it too. Admins only; recorded as a change.
     */
    @DELETE
    @RolesAllowed(Role.ADMIN_NAME)
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE}) // no body but a problem: a client may accept only that
    public Response purge(@PathParam("pid") String pid, @QueryParam("erase") String erase,
            @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch) {
        var id = Pids.parse("pid", pid);
        if (erase != null && !erase.equals("true") && !erase.equals("false")) {
            throw ProblemException.badRequest("erase must be true or false");
        }
        profiles.purge(AuditContext.origin(), id, "true".equals(erase) ? IfMatch.version(ifMatch) : null);
        return Response.noContent().build();
    }

    @GET
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public ProfileVersions versions(@PathParam("pid") String pid, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        return history.versions(Pids.parse("pid", pid), limit == null ? null : number("limit", limit), cursor);
    }

    @GET
    @Path("{version}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public ProfileVersion version(@PathParam("pid") String pid, @PathParam("version") String version) {
        long number;
        try {
            number = Long.parseLong(version);
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest("version must be a whole number");
        }
        if (number < 1) {
            throw ProblemException.badRequest("version must be a whole number from 1");
        }
        return history.version(Pids.parse("pid", pid), number);
    }

    private static int number(String name, String value) {
        try {
            return Math.toIntExact(Long.parseLong(value));
        } catch (NumberFormatException | ArithmeticException e) {
            throw ProblemException.badRequest(name + " must be a whole number");
        }
    }
}
