package io.profilestore.profiles;

import java.util.UUID;

/** A request named a user that does not exist. */
public class UserNotFoundException extends RuntimeException {

    private final UUID uid;
    private final boolean addressed;

    /** A user named in a request's body: the request cannot be done (422). */
    public UserNotFoundException(UUID uid) {
        this(uid, false);
    }

    /** @param addressed whether the request's path named the user (404) rather than its body (422) */
    public UserNotFoundException(UUID uid, boolean addressed) {
        super("no user with uid " + uid);
        this.uid = uid;
        this.addressed = addressed;
    }

    public boolean addressed() {
        return addressed;
    }

    public UUID uid() {
        return uid;
    }
}
