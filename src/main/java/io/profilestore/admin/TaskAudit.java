package io.profilestore.admin;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.profilestore.api.Problem;
import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.AuditLog;
import io.profilestore.audit.AuditUnavailableException;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.profilestore.support.ServletProblem;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Every POST to {@code /tasks/*} on the admin port is in the audit trail before the task runs: who (the admin
 * port's caller; anonymous with authentication off), which task, its parameters' names (values only where they are
 * harmless, {@link TaskParameters}), then the status it was answered with. A task that cannot be recorded does
 * not run: 503 {@code audit-unavailable}, as an operator's look-up. Its status is appended like a change's outcome;
 * if that fails, it stays unknown (the task has run by then).
 */
final class TaskAudit implements Filter {

    private final AuditLog trail;
    private final Meter failures;

    TaskAudit(DataSource dataSource, MetricRegistry metrics) {
        this.trail = new AuditLog(dataSource, metrics);
        this.failures = metrics.meter(AuditLog.FAILURES);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        var http = (HttpServletRequest) request;
        var answer = (HttpServletResponse) response;
        if (!"POST".equals(http.getMethod())) {
            chain.doFilter(request, response);
            return;
        }
        long id;
        try {
            id = trail.record(entry(http));
        } catch (AuditUnavailableException e) {
            refuse(answer); // counted in audit.failures by the trail
            return;
        } catch (RuntimeException e) {
            failures.mark();
            refuse(answer);
            return;
        }
        chain.doFilter(request, response);
        try {
            trail.recordOutcome(List.of(id), answer.getStatus());
        } catch (AuditUnavailableException e) {
            // the task has run: its record stays, its outcome unknown (counted in audit.failures)
        }
    }

    private static AuditEntry entry(HttpServletRequest request) {
        var caller = request.getUserPrincipal() instanceof Caller known ? known : Caller.ANONYMOUS;
        String task = request.getPathInfo() == null ? "" : request.getPathInfo();
        return new AuditEntry(null, null, caller.name(), caller.kind().name(),
                caller.roles().stream().map(Role::roleName).sorted().toList(), "POST /tasks" + task,
                "/tasks" + task + TaskParameters.described(request.getParameterMap()), List.of(), null);
    }

    private static void refuse(HttpServletResponse response) throws IOException {
        var problem = Problem.of(503, "audit-unavailable", "Service unavailable",
                "the task cannot be recorded in the audit trail, so it is not run; retry shortly");
        ServletProblem.send(response, problem, Map.of("Retry-After", "1"));
    }
}
