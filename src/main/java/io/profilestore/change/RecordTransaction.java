package io.profilestore.change;

/**
 * The one PostgreSQL transaction that records a change ({@link RecordTransactions}): the ports the change writes
 * through take it, so that renewing the locks, the outbox rows, the journal, what completes the change and its audit
 * record commit together or not at all. What it holds is the adapter's business.
 */
public interface RecordTransaction {
}
