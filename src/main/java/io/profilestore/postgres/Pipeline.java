package io.profilestore.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Statements sent to PostgreSQL together, in one round trip. The driver sends the statements of a text separated by
 * semicolons one after the other, with one Sync at the end, and only then reads their answers: N statements cost one
 * network wait instead of N. Each statement keeps its own parameters and gets its own answer, in order. Under READ
 * COMMITTED each statement still sees what the ones before it did and what others committed before it began; a
 * failing statement fails the whole text, and PostgreSQL runs none after it. Outside a transaction the statements are
 * one implicit transaction, committed at the Sync. One round trip as long as the driver knows every parameter's type:
 * to learn an untyped one it describes the statement first, and may split the exchange (so bind nulls typed).
 */
public final class Pipeline {

    /** Binds one statement's parameters, in the order they appear in it. */
    @FunctionalInterface
    public interface Binder {
        void bind(Params params) throws SQLException;
    }

    /** Reads one statement's answer: its rows (null for a statement without) and its update count (-1 with rows). */
    @FunctionalInterface
    public interface Answer {
        void read(ResultSet rows, long updated) throws SQLException;
    }

    /** No answer wanted. */
    public static final Answer IGNORED = (rows, updated) -> {
    };

    /** The parameters of one statement of the text, numbered from where the statement's own begin. */
    public static final class Params {
        private final PreparedStatement statement;
        private int next;

        private Params(PreparedStatement statement, int first) {
            this.statement = statement;
            this.next = first;
        }

        /** The values of one statement sent alone, as a JDBC batch does: its first parameter is 1. */
        public static Params of(PreparedStatement statement) {
            return new Params(statement, 1);
        }

        /** A value the driver knows the type of (a string, a UUID, a number, a boolean), or null of that SQL type. */
        public Params set(Object value, int sqlType) throws SQLException {
            statement.setObject(next++, value, sqlType);
            return this;
        }

        public Params set(String value) throws SQLException {
            return set(value, Types.VARCHAR);
        }

        public Params set(long value) throws SQLException {
            statement.setLong(next++, value);
            return this;
        }

        public Params set(double value) throws SQLException {
            statement.setDouble(next++, value);
            return this;
        }

        public Params set(boolean value) throws SQLException {
            statement.setBoolean(next++, value);
            return this;
        }

        /** A value whose type PostgreSQL infers from the statement (a UUID, a null UUID). */
        public Params set(Object value) throws SQLException {
            statement.setObject(next++, value);
            return this;
        }

        /** An array of {@code type} ("text", "uuid", "bigint", ...). */
        public Params array(String type, Collection<?> values) throws SQLException {
            statement.setArray(next++, statement.getConnection().createArrayOf(type, values.toArray()));
            return this;
        }

        private int next() {
            return next;
        }
    }

    private record Statement(String sql, Binder binder, Answer answer) {
    }

    private final List<Statement> statements = new ArrayList<>();

    /** Adds a statement (without a semicolon of its own), to be sent with the others. */
    public Pipeline add(String sql, Binder binder, Answer answer) {
        statements.add(new Statement(sql.strip(), binder, answer));
        return this;
    }

    public boolean isEmpty() {
        return statements.isEmpty();
    }

    /**
     * Sends every statement added in one round trip and hands each its answer, in order; empties the pipeline. An
     * answer that throws stops the reading: the caller rolls back what was sent.
     */
    public void send(Connection connection) throws SQLException {
        var sending = List.copyOf(statements);
        statements.clear();
        if (sending.isEmpty()) {
            return;
        }
        String text = sending.stream().map(Statement::sql).collect(Collectors.joining(";\n"));
        try (var statement = connection.prepareStatement(text)) {
            int first = 1;
            for (var one : sending) {
                var params = new Params(statement, first);
                one.binder().bind(params);
                first = params.next();
            }
            boolean rows = statement.execute();
            for (int i = 0; i < sending.size(); i++) {
                if (i > 0) {
                    rows = statement.getMoreResults();
                }
                if (rows) {
                    try (var answer = statement.getResultSet()) {
                        sending.get(i).answer().read(answer, -1);
                    }
                } else {
                    sending.get(i).answer().read(null, statement.getUpdateCount());
                }
            }
        }
    }
}
