package io.profilestore.postgres;

import io.profilestore.change.OneAtATime;
import io.profilestore.change.PostgresUnavailableException;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs a job on one instance at a time, however many run the service: a PostgreSQL advisory lock, held by a
 * connection for the length of the job (and freed by PostgreSQL should the instance die).
 */
public class ExclusiveRun implements OneAtATime {

    private final DataSource dataSource;

    public ExclusiveRun(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs the job unless another instance runs it now; returns whether it ran. */
    @Override
    public boolean ifFree(String job, Runnable body) {
        try (var connection = dataSource.getConnection()) {
            try (var lock = connection.prepareStatement("SELECT pg_try_advisory_lock(hashtext(?))")) {
                lock.setString(1, job);
                try (var rows = lock.executeQuery()) {
                    rows.next();
                    if (!rows.getBoolean(1)) {
                        return false;
                    }
                }
            }
            try {
                body.run();
                return true;
            } finally {
                try (var unlock = connection.prepareStatement("SELECT pg_advisory_unlock(hashtext(?))")) {
                    unlock.setString(1, job);
                    unlock.execute();
                }
            }
        } catch (SQLException e) {
            throw new PostgresUnavailableException("could not take the lock of " + job + " in PostgreSQL", e);
        }
    }
}
