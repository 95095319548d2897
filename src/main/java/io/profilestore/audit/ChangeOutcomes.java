package io.profilestore.audit;

import java.util.List;

/**
 * Where the outcome of recorded changes goes once it is known: the port {@link AuditLog} implements, and
 * {@link AuditOutcomeWriter}, which queues them for it off the request's path.
 */
@FunctionalInterface
public interface ChangeOutcomes {

    /** Appends the status of change records whose outcome is now known. */
    void recordOutcome(List<Long> ids, int status);
}
