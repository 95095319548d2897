package io.profilestore.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.postgresql.PGConnection;

/**
 * The relay's own PostgreSQL session, LISTENing on {@value #CHANNEL}: the outbox's trigger notifies it when a
 * transaction that recorded changes commits (V10__outbox_notify.sql). A notification carries nothing but its
 * arrival. One connection outside the pool, held all along; used by one thread, except {@link #close}, which ends a
 * wait from another.
 */
public class OutboxNotifications implements AutoCloseable {

    public static final String CHANNEL = "outbox_recorded";
    /** How the session shows in {@code pg_stat_activity}. */
    public static final String APPLICATION_NAME = "profile-store-outbox-listener";

    /** Opens a connection of its own, outside every pool. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final ConnectionSource source;
    private volatile Connection connection;

    public OutboxNotifications(ConnectionSource source) {
        this.source = source;
    }

    /** Opens a session and listens on it (an earlier session is closed first). */
    public void listen() throws SQLException {
        close();
        var fresh = source.open();
        try (var statement = fresh.createStatement()) {
            statement.execute("LISTEN " + CHANNEL);
        } catch (SQLException | RuntimeException e) {
            closeQuietly(fresh);
            throw e;
        }
        connection = fresh;
    }

    /**
     * Waits up to {@code timeout} for notifications: true when any came, false when none did. Throws when the
     * session is gone (the server ended it, the connection broke, or {@link #close} was called).
     */
    public boolean await(Duration timeout) throws SQLException {
        var current = connection;
        if (current == null) {
            throw new SQLException("not listening");
        }
        var notifications = current.unwrap(PGConnection.class).getNotifications((int) Math.max(1, timeout.toMillis()));
        return notifications != null && notifications.length > 0;
    }

    /**
     * Asks the server something: a connection that broke without a word (a network gone silent) shows no error
     * to a wait for notifications, only to a query, within the socket timeout.
     */
    public void check() throws SQLException {
        var current = connection;
        if (current == null) {
            throw new SQLException("not listening");
        }
        try (var statement = current.createStatement()) {
            statement.execute("SELECT 1");
        }
    }

    /** Ends the session, if any; safe from another thread, whose wait then throws. */
    @Override
    public void close() {
        var current = connection;
        connection = null;
        if (current != null) {
            closeQuietly(current);
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException | RuntimeException ignored) {
            // the session is gone either way
        }
    }
}
