package io.profilestore.resources;

import io.profilestore.api.SearchResponse;
import io.profilestore.core.search.SearchService;
import io.profilestore.resources.problems.ProblemException;
import io.profilestore.auth.Role;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /v1/search}: operators' look-ups. */
@Path("/v1/search")
@Produces(MediaType.APPLICATION_JSON)
public class SearchResource {

    private final SearchService search;

    public SearchResource(SearchService search) {
        this.search = search;
    }

    @GET
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME})
    public SearchResponse search(@QueryParam("q") String q, @QueryParam("surname") String surname, @QueryParam("firstName") String firstName,
            @QueryParam("patronymic") String patronymic, @QueryParam("birthDate") String birthDate,
            @QueryParam("phone") String phone, @QueryParam("document") String document,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @QueryParam("hydrate") String hydrate) {
        return search.search(new SearchService.Request(q, surname, firstName, patronymic, birthDate, phone, document,
                limit(limit), cursor, flag("hydrate", hydrate)));
    }

    private static Integer limit(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!value.matches("\\d{1,4}")) {
            throw ProblemException.badRequest("limit must be a whole number between 1 and " + SearchService.MAX_LIMIT);
        }
        return Integer.parseInt(value);
    }

    private static boolean flag(String name, String value) {
        if (value == null || value.isBlank() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw ProblemException.badRequest(name + " must be true or false");
    }
}
