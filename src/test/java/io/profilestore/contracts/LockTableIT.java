package io.profilestore.contracts;

import io.profilestore.change.Lease;
import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.postgres.PostgresRecordTransactions;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.time.Duration;

/** The contract of the lock table, held against PostgreSQL ({@code postgres.PostgresLockTable}). */
class LockTableIT extends LockTableContract {

    private final LockTable locks = Stores.locks(Duration.ofSeconds(30));
    private final RecordTransactions transactions = new PostgresRecordTransactions(TestStack.backends().postgres());

    @Override
    LockTable locks() {
        return locks;
    }

    @Override
    RecordTransactions transactions() {
        return transactions;
    }

    /** The lease ends a second ago, as if its holder had been slower than it. */
    @Override
    void runOut(Lease held) {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("UPDATE entity_lock"
                        + " SET lease_until = clock_timestamp() - interval '1 second' WHERE entity = ANY(?) AND holder = ?")) {
            statement.setArray(1, connection.createArrayOf("text", held.entities().toArray()));
            statement.setObject(2, held.holder());
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
