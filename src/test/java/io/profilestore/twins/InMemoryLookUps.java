package io.profilestore.twins;

import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.AuditUnavailableException;
import io.profilestore.audit.LookUpRecorder;
import java.util.ArrayList;
import java.util.List;

/**
 * The twin of a writer of look-ups to the audit trail (a person's, or a machine's searches): what it recorded, in
 * order. {@link #refuseNext} refuses the next one, as when PostgreSQL or the writer's queue cannot take it.
 */
public final class InMemoryLookUps implements LookUpRecorder {

    private final List<AuditEntry> recorded = new ArrayList<>();
    private boolean refusing;

    @Override
    public synchronized void record(AuditEntry entry) {
        if (refusing) {
            refusing = false;
            throw new AuditUnavailableException(new IllegalStateException("the twin refuses look-ups"));
        }
        recorded.add(entry);
    }

    /** The next look-up is refused. */
    public synchronized void refuseNext() {
        refusing = true;
    }

    public synchronized List<AuditEntry> recorded() {
        return List.copyOf(recorded);
    }
}
