package io.profilestore.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One access: who (name, kind of credential, roles), what they asked ({@code action} like {@code GET
 * /v1/search}, {@code request} the path and query as sent), which profiles the answer showed or the change
 * touched, and the status of the answer (for a change, null until it is known). {@code at} and {@code id} are set
 * by the store. {@code requestId}: the request's {@code Request-Id}, or for the system's own change the id its rows
 * carry (null for records without one: commands, and records from before it was kept).
 */
public record AuditEntry(Long id, Instant at, String actor, String actorKind, List<String> roles, String action,
        String request, List<UUID> pids, Integer status, UUID requestId) {

    public AuditEntry {
        roles = List.copyOf(roles);
        pids = List.copyOf(pids);
    }

    /** An access that names no request (a command's). */
    public AuditEntry(Long id, Instant at, String actor, String actorKind, List<String> roles, String action,
            String request, List<UUID> pids, Integer status) {
        this(id, at, actor, actorKind, roles, action, request, pids, status, null);
    }
}
