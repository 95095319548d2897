package io.profilestore.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.Problem;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * A problem answered by a servlet filter, where no Jersey exception mapper runs (the admin port's filters): its
 * status, its headers, {@code application/problem+json} and the problem's JSON, in one place.
 */
public final class ServletProblem {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ServletProblem() {
    }

    public static void send(HttpServletResponse response, Problem problem) throws IOException {
        send(response, problem, Map.of());
    }

    /** @param headers more headers of the answer ({@code Retry-After}, {@code WWW-Authenticate}) */
    public static void send(HttpServletResponse response, Problem problem, Map<String, String> headers)
            throws IOException {
        response.setStatus(problem.status());
        headers.forEach(response::setHeader);
        response.setContentType(Problem.MEDIA_TYPE);
        JSON.writeValue(response.getOutputStream(), problem);
    }
}
