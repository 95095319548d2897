package io.profilestore.profiles;

/** A request that would go beyond a configured limit; the answer names the limit, for the caller to keep within. */
public abstract class LimitExceededException extends RuntimeException {

    private final int limit;

    /** @param excess what the request would come to, stated before the limit in the message */
    protected LimitExceededException(String excess, int limit) {
        super(excess + "; the limit is " + limit);
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }
}
