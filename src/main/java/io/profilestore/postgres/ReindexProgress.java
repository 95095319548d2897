package io.profilestore.postgres;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import javax.sql.DataSource;

/** The slices a reindex has finished, kept in PostgreSQL so that a stopped reindex goes on where it was. */
public class ReindexProgress {

    private final DataSource dataSource;

    public ReindexProgress(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Set<Integer> done(String targetIndex) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("SELECT slice FROM reindex_progress WHERE target_index = ?")) {
            statement.setString(1, targetIndex);
            return Sql.rows(statement, new HashSet<Integer>(), rows -> rows.getInt(1));
        }
    }

    public void finished(String targetIndex, int slice, long profiles) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("""
                        INSERT INTO reindex_progress (target_index, slice, profiles) VALUES (?, ?, ?)
                        ON CONFLICT (target_index, slice) DO UPDATE SET profiles = excluded.profiles, done_at = now()
                        """)) {
            statement.setString(1, targetIndex);
            statement.setInt(2, slice);
            statement.setLong(3, profiles);
            statement.executeUpdate();
        }
    }

    public void forget(String targetIndex) throws SQLException {
        try (var connection = dataSource.getConnection();
                var statement = connection.prepareStatement("DELETE FROM reindex_progress WHERE target_index = ?")) {
            statement.setString(1, targetIndex);
            statement.executeUpdate();
        }
    }
}
