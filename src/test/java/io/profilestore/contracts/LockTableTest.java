package io.profilestore.contracts;

import io.profilestore.change.Lease;
import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.twins.InMemoryLockTable;
import io.profilestore.twins.InMemoryRecordTransactions;

/** The contract of the lock table, held against the twin. */
class LockTableTest extends LockTableContract {

    private final InMemoryLockTable locks = new InMemoryLockTable();
    private final InMemoryRecordTransactions transactions = new InMemoryRecordTransactions();

    @Override
    LockTable locks() {
        return locks;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }

    @Override
    void runOut(Lease held) {
        locks.runOut(held);
    }
}
