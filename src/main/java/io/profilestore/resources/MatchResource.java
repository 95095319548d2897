package io.profilestore.resources;

import io.profilestore.api.MatchesResponse;
import io.profilestore.auth.Role;
import io.profilestore.search.MatchService;
import io.profilestore.limits.LimitedAsSearch;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Possible duplicates of a profile: the users a merge might join it with. A look-up of other people, like a search. */
@Path("/v1/profiles/{pid}/matches")
@Produces(MediaType.APPLICATION_JSON)
public class MatchResource {

    private final MatchService matches;

    public MatchResource(MatchService matches) {
        this.matches = matches;
    }

    @GET
    @LimitedAsSearch
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public MatchesResponse matches(@PathParam("pid") String pid) {
        return matches.matches(Pids.parse("pid", pid));
    }
}
