package io.profilestore.audit;

import io.profilestore.api.MatchesResponse;
import io.profilestore.api.MergeHistory;
import io.profilestore.api.Problem;
import io.profilestore.api.Profile;
import io.profilestore.api.ProfileVersion;
import io.profilestore.api.ProfileVersions;
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
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.ResourceMethod;

/**
 * Audits look-ups. A person's (any caller but a machine, see {@link Caller#isMachine()}) every read and search, and
 * every read of the audit trail, is recorded with the pids its answer shows before the answer leaves; a machine's
 * look-ups (its searches and its reads by id) are queued for {@link MachineLookUpWriter} and answered at once.
 * When a record cannot be written or queued, the answer is replaced by a 503 that keeps none of the resource's
 * headers. (Changes are recorded on the write path, in their own transaction; their records get the answer's status
 * just after, through {@link AuditOutcomeWriter}.) Also hands the request to {@link AuditContext} for that path.
 */
@Priority(Priorities.AUTHORIZATION + 10)
public class AuditFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String SEARCH_IN_BODY = "POST /v1/search";

    private final LookUpRecorder lookUps;
    private final LookUpRecorder machineLookUps;
    private final ChangeOutcomes outcomes;
    private final Map<ResourceMethod, String> templates = new ConcurrentHashMap<>();

    /**
     * @param lookUps         a person's look-ups, each recorded before its answer ({@link AuditGroupWriter})
     * @param machineLookUps  a machine's look-ups, queued ({@link MachineLookUpWriter})
     * @param outcomes        the status each request's changes were answered with, off its path
     *                        ({@link AuditOutcomeWriter})
     */
    public AuditFilter(LookUpRecorder lookUps, LookUpRecorder machineLookUps, ChangeOutcomes outcomes) {
        this.lookUps = lookUps;
        this.machineLookUps = machineLookUps;
        this.outcomes = outcomes;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        var principal = request.getSecurityContext().getUserPrincipal();
        var caller = principal instanceof Caller c ? c : Caller.ANONYMOUS;
        var uri = request.getUriInfo().getRequestUri();
        String asked = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        AuditContext.set(new AuditContext.Request(caller, request.getMethod() + " " + template(request), asked,
                RequestIds.of(request)));
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        var current = AuditContext.current();
        var changes = AuditContext.takeChangeRecords();
        AuditContext.clear();
        if (!changes.isEmpty()) {
            // the change's record is durable already; its outcome follows the answer, off its path
            outcomes.recordOutcome(changes, response.getStatus());
        }
        // look-ups: reads, and searches sent in a body (changes are recorded on the write path); and a change refused
        // because its user was merged, whose answer names the master: it tells who any uid is now, a look-up too
        var merged = response.getEntity() instanceof Problem problem && problem.type().endsWith("/user-merged")
                ? problem : null;
        boolean lookUp = "GET".equals(request.getMethod()) || merged != null
                || SEARCH_IN_BODY.equals(current == null ? null : current.action());
        if (current == null || !lookUp) {
            return;
        }
        var caller = current.caller();
        boolean machine = caller.isMachine();
        var pids = merged != null ? List.<UUID>of() : shown(response.getEntity());
        if (pids == null) {
            return;
        }
        String asked = merged == null ? current.request() : current.request() + " (told: " + merged.detail() + ")";
        // an action of its own: a change's record by this request id would say the change was recorded
        String action = merged == null ? current.action() : current.action() + " (refused: user-merged)";
        var entry = new AuditEntry(null, null, caller.name(), caller.kind().name(),
                caller.roles().stream().map(Role::roleName).sorted().toList(), action, asked,
                pids, response.getStatus(), current.requestId());
        try {
            if (machine) {
                machineLookUps.record(entry);
            } else {
                lookUps.record(entry);
            }
        } catch (AuditUnavailableException e) {
            refuse(response, merged != null);
        }
    }

    /**
     * Replaces the answer by a 503 that tells nothing of it: every header the resource set goes (an ETag tells that
     * the pid exists and its version; a Location or Link, what it points at). The security headers are not lost:
     * {@code Security.SecurityHeaders} runs after this filter and adds them to every answer.
     */
    private static void refuse(ContainerResponseContext response, boolean refusedChange) {
        response.getHeaders().clear();
        response.setStatus(503);
        response.getHeaders().putSingle("Content-Type", Problem.MEDIA_TYPE);
        response.getHeaders().putSingle("Retry-After", "1");
        response.setEntity(Problem.of(503, "audit-unavailable", "Service unavailable", refusedChange
                ? "nothing was changed, and why (it names another user) cannot be recorded in the audit trail, so it is"
                        + " not told; retry shortly"
                : "the look-up cannot be recorded in the audit trail, so it is not answered; retry shortly"));
    }

    /**
     * The path as the resource declares it ({@code /v1/profiles/{pid}}): what kind of access, without the ids. Worked
     * out once for each resource method, whose templates never change (no resource here is reached through a
     * sub-resource locator, which would reach one method from several paths). A request without a matched method or
     * templates gets its own path, never cached: it holds ids.
     */
    private String template(ContainerRequestContext request) {
        if (request.getUriInfo() instanceof ExtendedUriInfo extended && extended.getMatchedResourceMethod() != null
                && !extended.getMatchedTemplates().isEmpty()) {
            return templates.computeIfAbsent(extended.getMatchedResourceMethod(), m -> template(extended));
        }
        return request.getUriInfo().getRequestUri().getPath();
    }

    private static String template(ExtendedUriInfo extended) {
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
        if (entity instanceof MatchesResponse found) {
            var pids = new ArrayList<UUID>(List.of(found.pid()));
            found.matches().forEach(match -> pids.addAll(match.pids()));
            return pids;
        }
        if (entity instanceof SearchResponse search) {
            return search.items().stream().map(SearchResponse.Item::pid).toList();
        }
        if (entity instanceof ProfileVersions versions) {
            return List.of(versions.pid());
        }
        if (entity instanceof ProfileVersion version) {
            return List.of(version.pid());
        }
        if (entity instanceof AuditPage page) {
            return page.shown();
        }
        return null;
    }
}
