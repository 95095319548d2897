package io.profilestore.audit;

/** The audit trail cannot be written: the look-up it would record must not be answered. */
public class AuditUnavailableException extends RuntimeException {

    public AuditUnavailableException(Throwable cause) {
        super("the audit trail cannot be written", cause);
    }
}
