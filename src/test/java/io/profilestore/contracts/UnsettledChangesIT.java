package io.profilestore.contracts;

import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UnsettledChanges;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.postgres.PostgresUnsettledChanges;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;

/** The contract of the changes that may still land, held against PostgreSQL ({@code postgres.PostgresUnsettledChanges}). */
class UnsettledChangesIT extends UnsettledChangesContract {

    private final LockTable locks = Stores.locks(Duration.ofSeconds(30));
    private final UnsettledChanges unsettled = new PostgresUnsettledChanges(TestStack.backends().postgres());
    private final RecordTransactions transactions = new PostgresRecordTransactions(TestStack.backends().postgres());

    @Override
    LockTable locks() {
        return locks;
    }

    @Override
    UnsettledChanges unsettled() {
        return unsettled;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }
}
