package io.profilestore.auth;

import io.profilestore.api.AdminPaths;
import io.profilestore.api.Problem;
import io.profilestore.support.ServletProblem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The admin port needs a bearer token with the admin role: its tasks change things (log levels, reconcile, gc)
 * and its thread dumps and CPU profiles show what requests are doing. Only what probes and scrapers read stays
 * open: health checks, ping and metrics, which hold no request's content. Keep the admin port off public
 * networks all the same (the chart's NetworkPolicy).
 */
final class AdminAuthFilter implements Filter {

    /** Paths open without a token; everything else on the admin port, present or future, needs the admin role. */
    static final Set<String> OPEN = AdminPaths.OPEN;

    private final BearerAuthenticator authenticator;

    AdminAuthFilter(BearerAuthenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        var http = (HttpServletRequest) request;
        if (CredentialsInUrl.carries(parameters(http))) {
            refuse((HttpServletResponse) response, Problem.of(400, "credentials-in-url", "Credentials in the URL",
                    CredentialsInUrl.DETAIL));
            return;
        }
        if (OPEN.contains(pathOf(http))) {
            chain.doFilter(request, response);
            return;
        }
        String header = http.getHeader("Authorization");
        var caller = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authenticator.authenticate(header.substring(7).strip()) : Optional.<Caller>empty();
        if (caller.isEmpty()) {
            refuse((HttpServletResponse) response, Problem.of(401, "unauthorized", "Unauthorized",
                    "the admin port needs Authorization: Bearer with the admin role"));
            return;
        }
        if (!caller.get().has(Role.ADMIN)) {
            refuse((HttpServletResponse) response, Problem.of(403, "forbidden", "Forbidden", "the admin port needs the admin role"));
            return;
        }
        chain.doFilter(new AuthenticatedRequest(http, caller.get()), response);
    }

    /** The request with its caller, for what comes after on the admin port (the tasks' audit records). */
    private static final class AuthenticatedRequest extends HttpServletRequestWrapper {
        private final Caller caller;

        AuthenticatedRequest(HttpServletRequest request, Caller caller) {
            super(request);
            this.caller = caller;
        }

        @Override
        public Principal getUserPrincipal() {
            return caller;
        }

        @Override
        public boolean isUserInRole(String role) {
            return caller.roles().stream().anyMatch(held -> held.roleName().equals(role));
        }

        @Override
        public String getAuthType() {
            return "Bearer";
        }
    }

    /** The query's parameters (only the URL's: the admin port reads no form bodies), and the path's matrix ones. */
    private static Map<String, List<String>> parameters(HttpServletRequest request) {
        var parameters = new HashMap<String, List<String>>();
        String query = request.getQueryString();
        if (query != null) {
            for (String pair : query.split("&")) {
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(equals < 0 ? "" : decode(pair.substring(equals + 1)));
            }
        }
        String uri = request.getRequestURI();
        for (String segment : uri.split("/")) {
            String[] parts = segment.split(";");
            for (int i = 1; i < parts.length; i++) {
                int equals = parts[i].indexOf('=');
                parameters.computeIfAbsent(decode(equals < 0 ? parts[i] : parts[i].substring(0, equals)), n -> new ArrayList<>())
                        .add(equals < 0 ? "" : decode(parts[i].substring(equals + 1)));
            }
        }
        return parameters;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }

    /** The path within the admin context, without a trailing slash (/healthcheck/ is /healthcheck). */
    private static String pathOf(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    private static void refuse(HttpServletResponse response, Problem problem) throws IOException {
        ServletProblem.send(response, problem, problem.status() == 401
                ? Map.of("WWW-Authenticate", "Bearer realm=\"" + Security.REALM + "\"") : Map.of());
    }
}
