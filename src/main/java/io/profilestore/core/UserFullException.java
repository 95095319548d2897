package io.profilestore.core;

import java.util.UUID;

/** A user would hold more profiles than allowed. */
public class UserFullException extends RuntimeException {

    private final int limit;

    public UserFullException(UUID uid, int profiles, int limit) {
        super("user " + uid + " would hold " + profiles + " profiles; the limit is " + limit);
        this.limit = limit;
    }

    public int limit() {
        return limit;
    }
}
