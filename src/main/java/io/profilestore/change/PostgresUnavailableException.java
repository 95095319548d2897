package io.profilestore.change;

/**
 * PostgreSQL could not be reached or did not answer. What was asked of it did not happen, unless
 * {@link #commitUnconfirmed()}: then a COMMIT was sent and not answered, and it may have taken effect.
 */
public class PostgresUnavailableException extends RuntimeException {

    private final boolean commitUnconfirmed;

    public PostgresUnavailableException(String message, Throwable cause) {
        this(message, cause, false);
    }

    public PostgresUnavailableException(String message, Throwable cause, boolean commitUnconfirmed) {
        super(message, cause);
        this.commitUnconfirmed = commitUnconfirmed;
    }

    public boolean commitUnconfirmed() {
        return commitUnconfirmed;
    }
}
