package io.profilestore.core;

import java.util.UUID;

/** A request named a user that does not exist. */
public class UserNotFoundException extends RuntimeException {

    private final UUID uid;

    public UserNotFoundException(UUID uid) {
        super("no user with uid " + uid);
        this.uid = uid;
    }

    public UUID uid() {
        return uid;
    }
}
