package io.profilestore.audit;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One access: who (name, kind of credential, roles), what they asked ({@code action} like {@code GET
 * /v1/search}, {@code request} the path and query as sent), which profiles the answer showed or the change
 * touched, and the status of the answer (for a change, null until it is known). {@code at} and {@code id} are set
 * by the store.
 */
public record AuditEntry(Long id, Instant at, String actor, String actorKind, List<String> roles, String action,
        String request, List<UUID> pids, Integer status) {

    public AuditEntry {
        roles = List.copyOf(roles);
        pids = List.copyOf(pids);
    }
}
