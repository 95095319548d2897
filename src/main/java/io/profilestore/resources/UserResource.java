package io.profilestore.resources;

import io.profilestore.api.MergeHistory;
import io.profilestore.api.User;
import io.profilestore.api.UserRequests;
import io.profilestore.api.UserResults;
import io.profilestore.audit.AuditContext;
import io.profilestore.auth.Role;
import io.profilestore.users.UserHistory;
import io.profilestore.users.UserService;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Users: read with their profiles and their merges, move a profile between users, merge and unmerge users. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class UserResource {

    private final UserService users;
    private final UserHistory history;

    public UserResource(UserService users, UserHistory history) {
        this.users = users;
        this.history = history;
    }

    @GET
    @Path("users/{uid}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public Response get(@PathParam("uid") String uid) {
        User user = users.get(Pids.parse("uid", uid));
        return Response.ok(user).tag(new EntityTag(Long.toString(user.version()))).build();
    }

    @GET
    @Path("users/{uid}/merges")
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public MergeHistory merges(@PathParam("uid") String uid) {
        return history.of(Pids.parse("uid", uid));
    }

    @ConditionalWrite
    @PUT
    @Path("profiles/{pid}/user")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(4 * 1024)
    public Response move(@PathParam("pid") String pid, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @NotNull @Valid UserRequests.Move request) {
        var id = Pids.parse("pid", pid);
        long version = IfMatch.version(ifMatch);
        var moved = users.move(AuditContext.origin(), id, version, request.uid());
        return Response.ok(moved).tag(ProfileResource.etag(moved)).build();
    }

    @POST
    @Path("users/{uid}/merge")
    @RolesAllowed({Role.EDITOR_NAME, Role.ADMIN_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(64 * 1024)
    public UserResults.Merged merge(@PathParam("uid") String uid, @NotNull @Valid UserRequests.Merge request) {
        return users.merge(AuditContext.origin(), Pids.parse("uid", uid), request.sources());
    }

    @POST
    @Path("users/{uid}/unmerge")
    @RolesAllowed({Role.EDITOR_NAME, Role.ADMIN_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(4 * 1024)
    public UserResults.Unmerged unmerge(@PathParam("uid") String uid, @NotNull @Valid UserRequests.Unmerge request) {
        return users.unmerge(AuditContext.origin(), Pids.parse("uid", uid), request.source(), request.mergeId());
    }
}
