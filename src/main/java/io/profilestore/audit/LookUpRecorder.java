package io.profilestore.audit;

/**
 * Where {@link AuditFilter} records a look-up: {@link AuditGroupWriter} (a person's, committed before the answer) and
 * {@link MachineLookUpWriter} (a machine's, queued).
 */
@FunctionalInterface
public interface LookUpRecorder {

    /** @throws AuditUnavailableException when the look-up cannot be recorded: it is then not answered */
    void record(AuditEntry entry);
}
