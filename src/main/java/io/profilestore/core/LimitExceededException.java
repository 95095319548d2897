package io.profilestore.core;

/** A request that would go beyond a configured limit; the answer names the limit, for the caller to keep within. */
public abstract class LimitExceededException extends RuntimeException {

    private final int limit;

    protected LimitExceededException(String message, int limit) {
        super(message);
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }
}
