package io.profilestore.postgres;

import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.RecordTransactions;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The transactions that record changes, on PostgreSQL: one connection, autocommit off, the change's work (its deferred
 * statements sent together, {@link PostgresTransaction}), one commit.
 * A commit sent and not answered may have taken effect, and says so ({@link PostgresUnavailableException#commitUnconfirmed}).
 */
public class PostgresRecordTransactions implements RecordTransactions {

    /**
     * Connections a PostgreSQL restart broke, in turn, that a change's record may be handed by the pool before it gets
     * a sound one: the pool checks a connection it hands out only when it has been idle for half a second.
     */
    private static final int BROKEN_CONNECTION_ATTEMPTS = 3;

    private final DataSource dataSource;

    public PostgresRecordTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public void inOne(Work work) {
        for (int attempt = 1; ; attempt++) {
            try {
                once(work);
                return;
            } catch (BrokenConnection e) {
                if (attempt == BROKEN_CONNECTION_ATTEMPTS) {
                    throw new PostgresUnavailableException("could not record the change in PostgreSQL", e.getCause());
                }
            }
        }
    }

    /** The connection failed at the transaction's first statement: nothing was done, and it may be tried again. */
    private static final class BrokenConnection extends RuntimeException {
        BrokenConnection(SQLException cause) {
            super(cause);
        }
    }

    private void once(Work work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            var transaction = new PostgresTransaction(connection);
            try {
                work.run(transaction);
                transaction.send();
            } catch (PostgresTransaction.Failed e) {
                rollbackQuietly(connection);
                var cause = e.sqlException();
                if (transaction.uses() == 1 && cause.getSQLState() != null && cause.getSQLState().startsWith("08")) {
                    throw new BrokenConnection(cause); // a connection exception (SQLSTATE class 08)
                }
                throw new PostgresUnavailableException("could not record the change in PostgreSQL", cause);
            } catch (RuntimeException e) {
                rollbackQuietly(connection);
                throw e;
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                // sent and not answered (a timeout, a lost connection): PostgreSQL may have committed it
                throw new PostgresUnavailableException("PostgreSQL did not confirm recording the change", e, true);
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not record the change in PostgreSQL", e);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; PostgreSQL rolls back on its own
        }
    }
}
