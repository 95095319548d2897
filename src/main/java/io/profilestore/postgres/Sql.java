package io.profilestore.postgres;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.UUID;

/** Reading the rows of a query, as the stores of this package do it. */
final class Sql {

    /** What one row reads as. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rows) throws SQLException;
    }

    private Sql() {
    }

    /** Runs the query and adds each of its rows, as {@code row} reads it, to {@code into}; returns {@code into}. */
    static <T, C extends Collection<? super T>> C rows(PreparedStatement statement, C into, Row<T> row)
            throws SQLException {
        try (var rows = statement.executeQuery()) {
            while (rows.next()) {
                into.add(row.read(rows));
            }
        }
        return into;
    }

    /** The first column as a UUID. */
    static UUID firstUuid(ResultSet rows) throws SQLException {
        return rows.getObject(1, UUID.class);
    }
}
