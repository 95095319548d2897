package io.profilestore.auth;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.api.Problem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The admin port's tasks (reconcile, log levels, gc) need a bearer token with the admin role. Health checks and
 * metrics stay open for probes and scrapers; keep the admin port off public networks (the chart's NetworkPolicy).
 */
final class TaskAuthFilter implements Filter {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BearerAuthenticator authenticator;

    TaskAuthFilter(BearerAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        var http = (HttpServletRequest) request;
        String header = http.getHeader("Authorization");
        var caller = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authenticator.authenticate(header.substring(7).strip()) : java.util.Optional.<Caller>empty();
        if (caller.isEmpty()) {
            refuse((HttpServletResponse) response, Problem.of(401, "unauthorized", "Unauthorized",
                    "tasks need Authorization: Bearer with the admin role"));
            return;
        }
        if (!caller.get().has(Role.ADMIN)) {
            refuse((HttpServletResponse) response, Problem.of(403, "forbidden", "Forbidden", "tasks need the admin role"));
            return;
        }
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse response, Problem problem) throws IOException {
        response.setStatus(problem.status());
        response.setContentType(Problem.MEDIA_TYPE);
        if (problem.status() == 401) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"" + Security.REALM + "\"");
        }
        JSON.writeValue(response.getOutputStream(), problem);
    }
}
