package io.profilestore.contracts;

import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UnsettledChanges;
import io.profilestore.twins.InMemoryLockTable;
import io.profilestore.twins.InMemoryRecordTransactions;

/** The contract of the changes that may still land, held against the twin (its lock table keeps them). */
class UnsettledChangesTest extends UnsettledChangesContract {

    private final InMemoryLockTable locks = new InMemoryLockTable();
    private final InMemoryRecordTransactions transactions = new InMemoryRecordTransactions();

    @Override
    LockTable locks() {
        return locks;
    }

    @Override
    UnsettledChanges unsettled() {
        return locks;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }
}
