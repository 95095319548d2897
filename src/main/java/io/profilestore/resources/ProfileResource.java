package io.profilestore.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.api.BatchCreateRequest;
import io.profilestore.api.BatchCreateResponse;
import io.profilestore.api.BatchUpdateRequest;
import io.profilestore.api.BatchUpdateResponse;
import io.profilestore.api.CreateProfileRequest;
import io.profilestore.api.Problem;
import io.profilestore.api.Profile;
import io.profilestore.api.ReplaceProfileRequest;
import io.profilestore.audit.AuditContext;
import io.profilestore.auth.Role;
import io.profilestore.history.ProfileHistory;
import io.profilestore.profiles.ProfileService;
import io.profilestore.resources.problems.ProblemException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** The profile API: HTTP in, {@link ProfileService} does the work. Every answer about one profile has its ETag. */
@Path("/v1")
@Produces(MediaType.APPLICATION_JSON)
public class ProfileResource {

    public static final String MERGE_PATCH = "application/merge-patch+json";

    /** One document of 64 KiB plus room for its envelope; a batch of 100 of them. */
    static final long SINGLE_BODY_LIMIT = 64 * 1024 + 16 * 1024;
    static final long BATCH_BODY_LIMIT = 100 * SINGLE_BODY_LIMIT;

    private final ProfileService profiles;
    private final ProfileHistory history;

    public ProfileResource(ProfileService profiles, ProfileHistory history) {
        this.profiles = profiles;
        this.history = history;
    }

    @POST
    @Path("profiles")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(SINGLE_BODY_LIMIT)
    public Response create(@NotNull @Valid CreateProfileRequest request, @Context UriInfo uri) {
        var created = profiles.create(AuditContext.origin(), request.uid(), request.data());
        return Response.created(uri.getBaseUriBuilder().path("v1/profiles/{pid}").build(created.pid()))
                .tag(etag(created))
                .entity(created)
                .build();
    }

    @GET
    @Path("profiles/{pid}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public Response get(@PathParam("pid") String pid, @QueryParam("asOf") String asOf) {
        var id = Pids.parse("pid", pid);
        // asOf: the profile as it stood then, from its history (docs/history.md)
        var profile = asOf == null ? profiles.get(id) : history.asOf(id, instant(asOf));
        return Response.ok(profile).tag(etag(profile)).build();
    }

    /** An RFC 3339 moment, with its offset ({@code 2026-12-06T10:15:30Z}, {@code 2026-12-06T13:15:30+03:00}). */
    private static Instant instant(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("asOf must be an RFC 3339 moment with its offset, such as"
                    + " 2026-12-06T10:15:30Z");
        }
    }

    /** A replace with If-Match; a create at this pid with If-None-Match: * (201, or 412 when it has a profile). */
    @ConditionalWrite
    @CreatesAtPid
    @PUT
    @Path("profiles/{pid}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(SINGLE_BODY_LIMIT)
    public Response replace(@PathParam("pid") String pid, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch, @NotNull @Valid ReplaceProfileRequest request,
            @Context UriInfo uri) {
        var id = Pids.parse("pid", pid);
        if (IfNoneMatch.isCreate(ifNoneMatch)) {
            var created = profiles.createAt(AuditContext.origin(), id, request.uid(), request.data());
            return Response.created(uri.getBaseUriBuilder().path("v1/profiles/{pid}").build(created.pid()))
                    .tag(etag(created))
                    .entity(created)
                    .build();
        }
        if (request.uid() != null) {
            throw ProblemException.badRequest("uid is the user of a profile created with If-None-Match: *; move a"
                    + " profile with PUT /v1/profiles/{pid}/user");
        }
        long version = IfMatch.version(ifMatch);
        var replaced = profiles.replace(AuditContext.origin(), id, version, request.data());
        return Response.ok(replaced).tag(etag(replaced)).build();
    }

    @ConditionalWrite
    @PATCH
    @Path("profiles/{pid}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MERGE_PATCH)
    @BodyLimit(SINGLE_BODY_LIMIT)
    public Response patch(@PathParam("pid") String pid, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
            JsonNode mergePatch) {
        var id = Pids.parse("pid", pid);
        long version = IfMatch.version(ifMatch);
        var patched = profiles.patch(AuditContext.origin(), id, version, mergePatch);
        return Response.ok(patched).tag(etag(patched)).build();
    }

    @ConditionalWrite
    @DELETE
    @Path("profiles/{pid}")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Produces({MediaType.APPLICATION_JSON, Problem.MEDIA_TYPE}) // no body but a problem: a client may accept only that
    public Response erase(@PathParam("pid") String pid, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch) {
        var id = Pids.parse("pid", pid);
        profiles.erase(AuditContext.origin(), id, IfMatch.version(ifMatch));
        return Response.noContent().build();
    }

    @POST
    @Path("profiles:batchCreate")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(BATCH_BODY_LIMIT)
    public Response batchCreate(@NotNull @Valid BatchCreateRequest request) {
        var created = profiles.createMany(AuditContext.origin(), request.profiles().stream().map(BatchCreateRequest.New::data).toList());
        return Response.status(201).entity(new BatchCreateResponse(created.stream()
                .map(p -> new BatchCreateResponse.Created(p.pid(), p.uid(), p.version())).toList())).build();
    }

    @POST
    @Path("profiles:batchUpdate")
    @RolesAllowed({Role.PLATFORM_NAME, Role.EDITOR_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(BATCH_BODY_LIMIT)
    public BatchUpdateResponse batchUpdate(@NotNull @Valid BatchUpdateRequest request) {
        var updates = request.updates().stream()
                .map(update -> new ProfileService.Update(update.pid(), update.version(), update.data()))
                .toList();
        var changed = profiles.batchUpdate(AuditContext.origin(), updates);
        return new BatchUpdateResponse(changed.stream()
                .map(p -> new BatchUpdateResponse.Updated(p.pid(), p.version(), p.updatedAt()))
                .toList());
    }

    static EntityTag etag(Profile profile) {
        return new EntityTag(Long.toString(profile.version()));
    }
}
