package io.profilestore.audit;

import io.profilestore.api.MergeHistory;
import io.profilestore.api.Problem;
import io.profilestore.api.Profile;
import io.profilestore.api.SearchResponse;
import io.profilestore.api.User;
import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.glassfish.jersey.server.ExtendedUriInfo;
import java.util.UUID;

/**
 * Audits look-ups: every read and search by an operator is recorded, with the pids its answer shows, before the
 * answer leaves; when the record cannot be written the answer is replaced by a 503. (Changes are recorded on
 * the write path, in their own transaction; their records get the answer's status just after, through
 * {@link AuditOutcomeWriter}.) Also hands the request
 * to {@link AuditContext} for that path.
 */
@Priority(Priorities.AUTHORIZATION + 10)
public class AuditFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String SEARCH_IN_BODY = "POST /v1/search";

    private final AuditGroupWriter lookUps;
    private final AuditOutcomeWriter outcomes;

    public AuditFilter(AuditGroupWriter lookUps, AuditOutcomeWriter outcomes) {
        this.lookUps = lookUps;
        this.outcomes = outcomes;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        var principal = request.getSecurityContext().getUserPrincipal();
        var caller = principal instanceof Caller c ? c : Caller.ANONYMOUS;
        var uri = request.getUriInfo().getRequestUri();
        String asked = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        AuditContext.set(new AuditContext.Request(caller, request.getMethod() + " " + template(request), asked));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        var current = AuditContext.current();
        var changes = AuditContext.takeChangeRecords();
        AuditContext.clear();
        if (!changes.isEmpty()) {
            // the change's record is durable already; its outcome follows the answer, off its path
            outcomes.record(changes, response.getStatus());
        }
        // look-ups: reads, and searches sent in a body (changes are recorded on the write path)
        boolean lookUp = "GET".equals(request.getMethod()) || SEARCH_IN_BODY.equals(current == null ? null : current.action());
        if (current == null || !lookUp || !(current.caller().has(Role.OPERATOR) || current.caller().has(Role.EDITOR)
                || current.caller().has(Role.ADMIN))) {
            return;
        }
        var pids = shown(response.getEntity());
        if (pids == null) {
            return;
        }
        var caller = current.caller();
        try {
            lookUps.record(new AuditEntry(null, null, caller.name(), caller.kind().name(),
                    caller.roles().stream().map(Role::roleName).sorted().toList(), current.action(), current.request(),
                    pids, response.getStatus()));
        } catch (AuditUnavailableException e) {
            response.setStatus(503);
            response.getHeaders().putSingle("Content-Type", Problem.MEDIA_TYPE);
            response.getHeaders().putSingle("Retry-After", "1");
            response.setEntity(Problem.of(503, "audit-unavailable", "Service unavailable",
                    "the look-up cannot be recorded in the audit trail, so it is not answered; retry shortly"));
        }
    }

    /** The path as the resource declares it ({@code /v1/profiles/{pid}}): what kind of access, without the ids. */
    private static String template(ContainerRequestContext request) {
        if (request.getUriInfo() instanceof ExtendedUriInfo extended && !extended.getMatchedTemplates().isEmpty()) {
            var templates = new ArrayList<>(extended.getMatchedTemplates());
            Collections.reverse(templates);
            var path = new StringBuilder();
            for (var template : templates) {
                String part = template.getTemplate();
                if (!part.startsWith("/") && (path.length() == 0 || path.charAt(path.length() - 1) != '/')) {
                    path.append('/');
                }
                path.append(part);
            }
            return path.toString();
        }
        return request.getUriInfo().getRequestUri().getPath();
    }

    /** The pids an answer shows, or null when it shows no profile (an error, say). */
    static List<UUID> shown(Object entity) {
        if (entity instanceof Profile profile) {
            return List.of(profile.pid());
        }
        if (entity instanceof User user) {
            return user.profiles().stream().map(Profile::pid).toList();
        }
        if (entity instanceof MergeHistory history) {
            return history.shown();
        }
        if (entity instanceof SearchResponse search) {
            return search.items().stream().map(SearchResponse.Item::pid).toList();
        }
        return null;
    }
}
