package io.profilestore.change;

/**
 * The stores a change goes through, by what it does with each: reads and writes the rows of profiles and users
 * (Cassandra), takes and frees locks, and in one transaction records the change in the outbox and the audit trail and
 * keeps what would complete it (PostgreSQL). The wiring gives the real adapters; the fast tier gives in-memory twins.
 */
public record ChangePorts(ProfileRows rows, LockTable locks, RecordTransactions transactions, OutboxWriter outbox,
        UnsettledChanges unsettled, AuditAppender audit) {
}
