package io.profilestore.twins;

import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.RecordTransactions;

/** The twin of PostgreSQL's record transactions: the work's writes apply at the commit, all of them or none. */
public final class InMemoryRecordTransactions implements RecordTransactions {

    private PostgresUnavailableException nextFailure;

    @Override
    public void inOne(Work work) {
        var transaction = new InMemoryTransaction();
        work.run(transaction);
        if (nextFailure != null) {
            var failure = nextFailure;
            nextFailure = null;
            if (failure.commitUnconfirmed()) {
                transaction.commit(); // sent and not answered: here, it took effect
            }
            throw failure;
        }
        transaction.commit();
    }

    /** The next commit fails so (one unconfirmed takes effect all the same). */
    public void failNextCommit(PostgresUnavailableException failure) {
        this.nextFailure = failure;
    }
}
