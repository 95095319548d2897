package io.profilestore.change;

/**
 * Opens the transaction that records a change, runs the change's work in it and commits: the port
 * {@code postgres.PostgresRecordTransactions} implements. The commit is the one that must be durable before Cassandra
 * is written.
 */
@FunctionalInterface
public interface RecordTransactions {

    /** The writes of one record, each a call to a port with the transaction. */
    @FunctionalInterface
    interface Work {
        void run(RecordTransaction transaction);
    }

    /**
     * Runs the work in one transaction and commits it.
     *
     * @throws PostgresUnavailableException when it could not; {@link PostgresUnavailableException#commitUnconfirmed()}
     *                                      says that the commit was sent and not answered, and may have taken effect
     * @throws LeaseLostException           when the work found the locks were not ours; nothing was committed then
     */
    void inOne(Work work);
}
