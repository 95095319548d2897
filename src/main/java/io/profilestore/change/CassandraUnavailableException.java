package io.profilestore.change;

/**
 * Cassandra did not do what was asked: not enough replicas, a timeout, no node reachable.
 * {@link #maybeApplied()} tells a write that timed out (it may still show) from one that surely did not happen.
 */
public class CassandraUnavailableException extends RuntimeException {

    private final boolean maybeApplied;

    public CassandraUnavailableException(String message, Throwable cause, boolean maybeApplied) {
        super(message, cause);
        this.maybeApplied = maybeApplied;
    }

    public boolean maybeApplied() {
        return maybeApplied;
    }
}
