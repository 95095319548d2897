package io.profilestore.audit;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import java.util.List;
import java.util.UUID;

/**
 * The request being served, for the change path to audit what it changes in the change's own transaction.
 * Requests are served on one thread each, so a thread-local carries it from the resource filter to the write
 * path; work outside a request (the recovery) has none and is audited as the system.
 */
public final class AuditContext {

    /** The caller and what was asked. */
    public record Request(Caller caller, String action, String request) {
    }

    private static final ThreadLocal<Request> CURRENT = new ThreadLocal<>();

    private AuditContext() {
    }

    static void set(Request request) {
        CURRENT.set(request);
    }

    static void clear() {
        CURRENT.remove();
    }

    static Request current() {
        return CURRENT.get();
    }

    /** The audit record of a change to these profiles, for whoever is asking now. */
    public static AuditEntry change(List<UUID> pids) {
        var current = CURRENT.get();
        if (current == null) {
            return new AuditEntry(null, null, "system", "SYSTEM", List.of(), "recovery", "", pids, 200);
        }
        var caller = current.caller();
        return new AuditEntry(null, null, caller.name(), caller.kind().name(),
                caller.roles().stream().map(Role::roleName).sorted().toList(), current.action(), current.request(), pids, 200);
    }
}
