package io.profilestore.audit;

import io.profilestore.auth.Caller;
import io.profilestore.auth.Role;
import io.profilestore.change.Origin;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The request being served, from the audit filter to the resources: requests are served on one thread each, so a
 * thread-local carries it. The write path never reads it: a resource hands it over as the change's {@link #origin}.
 */
public final class AuditContext {

    /** The caller, what was asked, and the request's id ({@code Request-Id}), which its changes' rows carry. */
    public record Request(Caller caller, String action, String request, UUID requestId) {
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
     * Who makes the changes of the request being served, for the resource to hand to the write path: the caller, what
     * was asked, and the request's id, which its changes' rows carry; the audit records of its changes are kept for
     * the answer's status.
     *
     * @throws IllegalStateException outside a request
     */
    public static Origin origin() {
        var current = CURRENT.get();
        if (current == null) {
            throw new IllegalStateException("no request is being served on this thread");
        }
        var caller = current.caller();
        var records = CHANGES.get();
        return new Origin(current.requestId() != null ? current.requestId() : UUID.randomUUID(), caller.name(),
                caller.kind().name(), caller.roles().stream().map(Role::roleName).sorted().toList(), current.action(),
                current.request(), records::add);
    }
}
