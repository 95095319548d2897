package io.profilestore.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Work on PostgreSQL done in the transaction that records a change (a change's own journal, say). */
@FunctionalInterface
public interface Journal {

    Journal NONE = connection -> {
    };

    void write(Connection connection) throws SQLException;
}
