package io.profilestore.change;

import java.util.List;
import java.util.UUID;
import java.util.function.LongConsumer;

/**
 * Who makes a change: a request (its caller, what it asked, its {@code Request-Id}) or the system's own work (the
 * recovery, check-tables, the sweep). It travels as a parameter from the resource or the job down to the change's
 * commit, which writes it into the audit trail in the change's own transaction.
 *
 * @param writer         the id the change's rows carry ({@code written_by}): the request's id, or the system work's
 * @param requestRecords where a request's audit records go, for its answer's status to be written to them once known;
 *                       null for the system's own work, whose outcome is written when the change ends
 */
public record Origin(UUID writer, String actor, String actorKind, List<String> roles, String action, String request,
        LongConsumer requestRecords) {

    public Origin {
        roles = List.copyOf(roles);
    }

    /** The system's own work: its job (recovery, check-tables ...) is the action; its changes say {@code writer}. */
    public static Origin system(String job, UUID writer) {
        return new Origin(writer, "system", "SYSTEM", List.of(), job, "", null);
    }

    /** Whether a request made the change (else the system's own work did). */
    public boolean isRequest() {
        return requestRecords != null;
    }
}
