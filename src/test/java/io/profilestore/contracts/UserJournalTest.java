package io.profilestore.contracts;

import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.twins.InMemoryLockTable;
import io.profilestore.twins.InMemoryRecordTransactions;
import io.profilestore.twins.InMemoryUserJournal;

/** The contract of the merge journal, held against the twin. */
class UserJournalTest extends UserJournalContract {

    private final InMemoryLockTable locks = new InMemoryLockTable();
    private final InMemoryUserJournal journal = new InMemoryUserJournal(locks);
    private final InMemoryRecordTransactions transactions = new InMemoryRecordTransactions();

    @Override
    UserJournal journal() {
        return journal;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }

    @Override
    LockTable locks() {
        return locks;
    }
}
