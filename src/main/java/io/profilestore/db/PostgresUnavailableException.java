package io.profilestore.db;

/** PostgreSQL could not be reached or did not answer; what was asked of it did not happen. */
public class PostgresUnavailableException extends RuntimeException {

    public PostgresUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
