package io.profilestore.resources;

import io.profilestore.api.SearchResponse;
import io.profilestore.search.SearchService;
import io.profilestore.resources.problems.ProblemException;
import io.profilestore.auth.Role;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import io.profilestore.api.SearchRequest;
import io.profilestore.audit.AuditContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.StringJoiner;

/**
 * {@code GET /v1/search} and {@code POST /v1/search} (the same, its terms in the body): the platform's look-ups and
 * people's (every person's audited).
 */
@Path("/v1/search")
@Produces(MediaType.APPLICATION_JSON)
public class SearchResource {

    private final SearchService search;

    public SearchResource(SearchService search) {
        this.search = search;
    }

    @GET
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    public SearchResponse search(@QueryParam("q") String q, @QueryParam("surname") String surname, @QueryParam("firstName") String firstName,
            @QueryParam("patronymic") String patronymic, @QueryParam("birthDate") String birthDate,
            @QueryParam("phone") String phone, @QueryParam("document") String document,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @QueryParam("hydrate") String hydrate) {
        return search.search(new SearchService.Request(q, surname, firstName, patronymic, birthDate, phone, document,
                limit(limit), cursor, flag("hydrate", hydrate)));
    }

    @POST
    @RolesAllowed({Role.PLATFORM_NAME, Role.OPERATOR_NAME, Role.EDITOR_NAME, Role.ADMIN_NAME})
    @Consumes(MediaType.APPLICATION_JSON)
    @BodyLimit(8 * 1024)
    public SearchResponse searchInBody(@NotNull @Valid SearchRequest request) {
        // the audit trail records what was asked as it would for GET: the same parameters, as a query
        AuditContext.asked(asQuery(request));
        return search.search(new SearchService.Request(request.q(), request.surname(), request.firstName(),
                request.patronymic(), request.birthDate(), request.phone(), request.document(), request.limit(),
                request.cursor(), Boolean.TRUE.equals(request.hydrate())));
    }

    private static String asQuery(SearchRequest request) {
        var parameters = new LinkedHashMap<String, Object>();
        parameters.put("q", request.q());
        parameters.put("surname", request.surname());
        parameters.put("firstName", request.firstName());
        parameters.put("patronymic", request.patronymic());
        parameters.put("birthDate", request.birthDate());
        parameters.put("phone", request.phone());
        parameters.put("document", request.document());
        parameters.put("limit", request.limit());
        parameters.put("cursor", request.cursor());
        parameters.put("hydrate", request.hydrate());
        var query = new StringJoiner("&");
        parameters.forEach((name, value) -> {
            if (value != null) {
                query.add(name + "=" + URLEncoder.encode(value.toString(), StandardCharsets.UTF_8));
            }
        });
        return "/v1/search?" + query;
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
