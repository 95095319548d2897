package io.profilestore.profiles;

import java.util.UUID;

/** A user would hold more profiles than allowed. */
public class UserFullException extends LimitExceededException {

    public UserFullException(UUID uid, int profiles, int limit) {
        super("user " + uid + " would hold " + profiles + " profiles", limit);
    }
}
