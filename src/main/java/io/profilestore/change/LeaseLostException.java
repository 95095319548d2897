package io.profilestore.change;

/** The holder's locks ran out (it was slower than the lease) and may belong to another request now. */
public class LeaseLostException extends RuntimeException {

    private final boolean maybeWritten;

    public LeaseLostException(String message, boolean maybeWritten) {
        super(message);
        this.maybeWritten = maybeWritten;
    }

    /** Whether the Cassandra write had been sent: then it may show, or lose to a newer one. */
    public boolean maybeWritten() {
        return maybeWritten;
    }
}
