package io.profilestore.contracts;

import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.postgres.PostgresUserJournal;
import io.profilestore.postgres.PostgresUserJournalHistory;
import io.profilestore.testing.TestStack;

/**
 * The contract of the merge journal read as history, held against PostgreSQL
 * ({@code postgres.PostgresUserJournalHistory}, written through {@code postgres.PostgresUserJournal}).
 */
class UserJournalHistoryIT extends UserJournalHistoryContract {

    private final UserJournal journal = new PostgresUserJournal(TestStack.backends().postgres());
    private final UserJournalHistory history = new PostgresUserJournalHistory(TestStack.backends().postgres());
    private final RecordTransactions transactions = new PostgresRecordTransactions(TestStack.backends().postgres());

    @Override
    UserJournal journal() {
        return journal;
    }

    @Override
    UserJournalHistory history() {
        return history;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }
}
