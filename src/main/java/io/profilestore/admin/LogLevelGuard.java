package io.profilestore.admin;

import io.profilestore.api.Problem;
import io.profilestore.support.ServletProblem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * Dropwizard's {@code log-level} task, kept for what it is good for (raising the service's own loggers during an
 * incident, quietening a noisy driver) but refused, 400 {@code logger-refused}, for a logger of
 * {@link GuardedLoggers} set above INFO: the whole call is refused, nothing of it applied. The task reads its
 * parameters from the query and a form body alike; so does this.
 */
final class LogLevelGuard implements Filter {

    static final String TASK = "/log-level";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        var http = (HttpServletRequest) request;
        if ("POST".equals(http.getMethod()) && TASK.equals(http.getPathInfo())) {
            List<String> loggers = values(http, "logger");
            List<String> levels = values(http, "level");
            for (String logger : loggers) {
                for (String level : levels.isEmpty() ? java.util.Collections.<String>singletonList(null) : levels) {
                    if (!GuardedLoggers.maySet(logger, level)) {
                        refuse((HttpServletResponse) response, logger);
                        return;
                    }
                }
            }
        }
        chain.doFilter(request, response);
    }

    private static List<String> values(HttpServletRequest request, String name) {
        String[] values = request.getParameterValues(name);
        return values == null ? List.of() : Arrays.asList(values);
    }

    private static void refuse(HttpServletResponse response, String logger) throws IOException {
        String named = logger != null && logger.matches("[A-Za-z0-9_$.]{1,200}") ? logger : "this logger";
        var problem = Problem.of(400, "logger-refused", "Logger refused", "log-level may not raise " + named
                + ": it, a logger under it or the root may print headers, bodies or credentials above INFO;"
                + " it may be set to INFO, WARN, ERROR or OFF only");
        ServletProblem.send(response, problem);
    }
}
