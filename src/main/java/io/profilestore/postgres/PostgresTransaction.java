package io.profilestore.postgres;

import io.profilestore.change.RecordTransaction;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The transaction that records a change, on one connection: the adapters of this package write in it, and
 * {@link PostgresRecordTransactions} commits it. A statement's failure travels out of the change's work as
 * {@link Failed}, so that the transaction's owner decides what it means. Public for the adapters on PostgreSQL that
 * live with their domain (the audit trail's).
 */
public final class PostgresTransaction implements RecordTransaction {

    /** Work on the transaction's connection, as the adapters write it. */
    @FunctionalInterface
    public interface SqlWork {
        void write(Connection connection) throws SQLException;
    }

    /** A statement of the transaction failed; nothing of it is committed. */
    static final class Failed extends RuntimeException {
        Failed(SQLException cause) {
            super(cause);
        }

        SQLException sqlException() {
            return (SQLException) getCause();
        }
    }

    private final Connection connection;
    private int uses;

    PostgresTransaction(Connection connection) {
        this.connection = connection;
    }

    /** Runs the work in the transaction. */
    public static void run(RecordTransaction transaction, SqlWork work) {
        var own = (PostgresTransaction) transaction;
        own.uses++;
        try {
            work.write(own.connection);
        } catch (SQLException e) {
            throw new Failed(e);
        }
    }

    /** How many works ran in it: a connection found broken by the first one means nothing was done yet. */
    int uses() {
        return uses;
    }
}
