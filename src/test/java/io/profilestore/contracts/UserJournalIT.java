package io.profilestore.contracts;

import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.postgres.PostgresUserJournal;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;

/** The contract of the merge journal, held against PostgreSQL ({@code postgres.PostgresUserJournal}). */
class UserJournalIT extends UserJournalContract {

    private final UserJournal journal = new PostgresUserJournal(TestStack.backends().postgres());
    private final RecordTransactions transactions = new PostgresRecordTransactions(TestStack.backends().postgres());
    private final LockTable locks = Stores.locks(Duration.ofSeconds(30));

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
