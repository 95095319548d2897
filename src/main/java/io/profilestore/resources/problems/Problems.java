package io.profilestore.resources.problems;

import io.profilestore.api.Problem;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/** Builds the response of a problem. */
public final class Problems {

    private Problems() {
    }

    /** A problem a resource raised that another layer (Jackson, say) wrapped on its way out. */
    static Optional<Problem> carried(Throwable exception) {
        for (Throwable t = exception; t != null; t = t.getCause()) {
            if (t instanceof ProblemException problem) {
                return Optional.of(problem.problem());
            }
        }
        return Optional.empty();
    }

    /** A request the API refuses as it stands: a missing body or member, a malformed identifier or parameter. */
    public static Problem badRequest(String detail) {
        return Problem.of(400, "bad-request", "Bad request", detail);
    }

    public static Response response(Problem problem) {
        var response = Response.status(problem.status()).type(Problem.MEDIA).entity(problem);
        if (problem.status() == 503) {
            response.header("Retry-After", "1");
        }
        return response.build();
    }
}
