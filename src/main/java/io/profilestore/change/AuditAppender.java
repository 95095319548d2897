package io.profilestore.change;

import java.util.List;
import java.util.UUID;

/**
 * The audit trail as the write path writes it: who changed which profiles, in the transaction that records the
 * change, and later the change's outcome. The port {@code audit.AuditLog} implements.
 */
public interface AuditAppender {

    /** Appends the record of a change of these profiles by {@code origin}; its id, for {@link #outcome}. */
    long append(RecordTransaction transaction, Origin origin, List<UUID> pids);

    /**
     * The change of this record ended, applied or not. A request's changes get the status of its answer instead (the
     * audit filter writes it), so only the system's own work is written here.
     */
    void outcome(Origin origin, long record, boolean applied);
}
