package io.profilestore.contracts;

import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.twins.InMemoryLockTable;
import io.profilestore.twins.InMemoryRecordTransactions;
import io.profilestore.twins.InMemoryUserJournal;

/** The contract of the merge journal read as history, held against the twin. */
class UserJournalHistoryTest extends UserJournalHistoryContract {

    private final InMemoryUserJournal journal = new InMemoryUserJournal(new InMemoryLockTable());
    private final InMemoryRecordTransactions transactions = new InMemoryRecordTransactions();

    @Override
    UserJournal journal() {
        return journal;
    }

    @Override
    UserJournalHistory history() {
        return journal;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }
}
