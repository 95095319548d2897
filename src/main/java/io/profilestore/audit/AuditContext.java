package io.profilestore.audit;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import java.util.ArrayList;
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
            CURRENT.set(new Request(current.caller(), current.action(), request));
        }
    }

    static Request current() {
        return CURRENT.get();
    }

    /** The audit record of a change to these profiles, for whoever is asking now. */
    public static AuditEntry change(List<UUID> pids) {
        var current = CURRENT.get();
        if (current == null) {
            return new AuditEntry(null, null, "system", "SYSTEM", List.of(), "recovery", "", pids, null);
        }
        var caller = current.caller();
        return new AuditEntry(null, null, caller.name(), caller.kind().name(),
                caller.roles().stream().map(Role::roleName).sorted().toList(), current.action(), current.request(), pids,
                null);
    }
}
