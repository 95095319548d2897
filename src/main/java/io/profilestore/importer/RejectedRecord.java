package io.profilestore.importer;

/**
 * A record the import cannot take, and why, in words that quote nothing of the record (a rejects file is read by
 * people who need not see the customer's data): its position and, when it named one, its pid.
 */
public class RejectedRecord extends RuntimeException {

    private final long position;
    private final String pid;

    public RejectedRecord(long position, String pid, String reason) {
        super(reason, null, false, false);
        this.position = position;
        this.pid = pid;
    }

    public long position() {
        return position;
    }

    /** The pid the record named, when it is one; null otherwise. */
    public String pid() {
        return pid;
    }

    public String reason() {
        return getMessage();
    }
}
