package io.profilestore.postgres;

import io.profilestore.change.RecordTransaction;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;

/**
 * The transaction that records a change, on one connection: the adapters of this package write in it, and
 * {@link PostgresRecordTransactions} commits it. A statement's failure travels out of the change's work as
 * {@link Failed}, so that the transaction's owner decides what it means. Public for the adapters on PostgreSQL that
 * live with their domain (the audit trail's).
 *
 * <p>Statements whose answer the work does not need at once are {@linkplain #defer deferred}: they go to PostgreSQL
 * together, in one round trip, with the next statement whose answer is needed ({@link #ask}, {@link #run}) or just
 * before the commit. A single-profile change records its lock's renewal, its outbox record, what completes it and its
 * audit record so, in one round trip, then commits. A deferred statement's answer may still refuse the change (a
 * renewal that found the lock gone): it is read before anything after it is sent, and nothing is committed.
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

    /** Reads the rows of a statement whose answer is needed now. */
    @FunctionalInterface
    public interface Rows<T> {
        T read(ResultSet rows) throws SQLException;
    }

    private final Connection connection;
    private final Pipeline pending = new Pipeline();
    private int uses;

    PostgresTransaction(Connection connection) {
        this.connection = connection;
    }

    /** Runs the work in the transaction, after the deferred statements. */
    public static void run(RecordTransaction transaction, SqlWork work) {
        var own = (PostgresTransaction) transaction;
        own.send();
        own.uses++;
        try {
            work.write(own.connection);
        } catch (SQLException e) {
            throw new Failed(e);
        }
    }

    /** A statement sent with the next one whose answer is needed, or before the commit; its answer is read then. */
    public static void defer(RecordTransaction transaction, String sql, Pipeline.Binder binder,
            Pipeline.Answer answer) {
        ((PostgresTransaction) transaction).pending.add(sql, binder, answer);
    }

    /** A statement sent now, in one round trip with those deferred before it: what its rows read as. */
    public static <T> T ask(RecordTransaction transaction, String sql, Pipeline.Binder binder, Rows<T> rows) {
        var own = (PostgresTransaction) transaction;
        var answer = new ArrayList<T>(1);
        own.pending.add(sql, binder, (result, updated) -> answer.add(rows.read(result)));
        own.send();
        return answer.get(0);
    }

    /** Sends what is deferred (before the commit). */
    void send() {
        if (pending.isEmpty()) {
            return;
        }
        uses++;
        try {
            pending.send(connection);
        } catch (SQLException e) {
            throw new Failed(e);
        }
    }

    /** How many round trips it made: a connection found broken by the first one means nothing was done yet. */
    int uses() {
        return uses;
    }
}
