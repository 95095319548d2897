package io.profilestore.resources.problems;

import io.profilestore.api.Problem;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;

/** Jersey's own refusals (no such route, method not allowed, unsupported media type...) as problems. */
public class WebApplicationExceptionMapper implements ExceptionMapper<WebApplicationException> {

    @Override
    public Response toResponse(WebApplicationException exception) {
        var original = exception.getResponse();
        if (original.hasEntity() && original.getEntity() instanceof Problem) {
            return original; // a refusal that is a problem already (401 of the authentication filter)
        }
        int status = original.getStatus();
        if (status >= 500) {
            return new UnexpectedExceptionMapper().toResponse(exception);
        }
        var problem = switch (status) {
            case 401 -> Problem.of(401, "unauthorized", "Unauthorized", "send Authorization: Bearer with a valid token");
            case 403 -> Problem.of(403, "forbidden", "Forbidden", "your roles do not allow this");
            case 404 -> Problem.of(404, "not-found", "Not found", "no resource at this path");
            case 405 -> Problem.of(405, "method-not-allowed", "Method not allowed",
                    "allowed here: " + String.join(", ", original.getAllowedMethods()));
            case 406 -> Problem.of(406, "not-acceptable", "Not acceptable", "this resource answers application/json");
            case 415 -> Problem.of(415, "unsupported-media-type", "Unsupported media type",
                    "send application/json (application/merge-patch+json for PATCH)");
            default -> Problem.of(status, "bad-request", original.getStatusInfo().getReasonPhrase(),
                    exception.getMessage() == null ? "the request was refused" : exception.getMessage());
        };
        var response = Response.status(status).type(Problem.MEDIA).entity(problem);
        if (status == 405) {
            response.allow(original.getAllowedMethods());
        }
        return response.build();
    }
}
