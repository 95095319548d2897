package io.profilestore.audit;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The request being served, for the change path to audit what it changes in the change's own transaction.
 * Requests are served on one thread each, so a thread-local carries it from the resource filter to the write
 * path; work outside a request (the recovery) has none and is audited as the system.
 */
public final class AuditContext {

    /** The caller, what was asked, and the request's id ({@code Request-Id}), which its changes' rows carry. */
    public record Request(Caller caller, String action, String request, UUID requestId) {
    }

    /**
     * Work the system does on its own, outside any request: what it is ({@code job}: recovery, check-tables ...), and
     * the id its changes carry in their rows and audit records.
     */
    public record SystemWork(String job, UUID writer) {
    }

    private static final ThreadLocal<Request> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<SystemWork> SYSTEM = new ThreadLocal<>();
    /** The audit records of the changes this request made, to be given the status it is answered with. */
    private static final ThreadLocal<List<Long>> CHANGES = ThreadLocal.withInitial(ArrayList::new);

    private AuditContext() {
    }

    static void set(Request request) {
        CURRENT.set(request);
    }

    static void clear() {
        CURRENT.remove();
        CHANGES.remove();
    }

    /** Whether a request is being served (else the work is the system's own: the recovery, the table check). */
    public static boolean inRequest() {
        return CURRENT.get() != null;
    }

    /**
     * Runs the system's own work ({@code job}) so that the changes it makes say {@code writer} wrote them: the
     * recovery completing a merge writes as the merge's request, check-tables' repairs as their run.
     */
    public static <T> T asSystem(String job, UUID writer, Supplier<T> work) {
        var before = SYSTEM.get();
        SYSTEM.set(new SystemWork(job, writer));
        try {
            return work.get();
        } finally {
            if (before == null) {
                SYSTEM.remove();
            } else {
                SYSTEM.set(before);
            }
        }
    }

    /**
     * The id the change about to be made carries ({@code written_by}): the request's, the system work's, or, for work
     * that says none (a test calling the core directly), a new one.
     */
    public static UUID writer() {
        var request = CURRENT.get();
        if (request != null && request.requestId() != null) {
            return request.requestId();
        }
        var system = SYSTEM.get();
        return system != null ? system.writer() : UUID.randomUUID();
    }

    /** A change of this request was recorded under this audit record id. */
    public static void changeRecorded(long id) {
        if (inRequest()) {
            CHANGES.get().add(id);
        }
    }

    /** The records of this request's changes (and forgets them). */
    static List<Long> takeChangeRecords() {
        var records = List.copyOf(CHANGES.get());
        CHANGES.remove();
        return records;
    }

    /**
     * What was asked, when the URL does not say it all (a search sent in a body): the audit record shows this
     * instead of the path and query.
     */
    public static void asked(String request) {
        var current = CURRENT.get();
        if (current != null) {
            CURRENT.set(new Request(current.caller(), current.action(), request, current.requestId()));
        }
    }

    static Request current() {
        return CURRENT.get();
    }

    /**
     * The audit record of a change to these profiles made by {@code writer}, for whoever is asking now: a request's,
     * or the system's own work (its job as the action).
     */
    public static AuditEntry change(List<UUID> pids, UUID writer) {
        var current = CURRENT.get();
        if (current == null) {
            var system = SYSTEM.get();
            return new AuditEntry(null, null, "system", "SYSTEM", List.of(), system == null ? "recovery" : system.job(), "",
                    pids, null, writer);
        }
        var caller = current.caller();
        return new AuditEntry(null, null, caller.name(), caller.kind().name(),
                caller.roles().stream().map(Role::roleName).sorted().toList(), current.action(), current.request(), pids,
                null, writer);
    }
}
