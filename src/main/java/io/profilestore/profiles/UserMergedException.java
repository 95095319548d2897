package io.profilestore.profiles;

import java.util.UUID;

/** A request named a user that was merged into another one; new profiles go to the master. */
public class UserMergedException extends RuntimeException {

    private final UUID uid;
    private final UUID masterUid;

    public UserMergedException(UUID uid, UUID masterUid) {
        super("user " + uid + " was merged into " + masterUid);
        this.uid = uid;
        this.masterUid = masterUid;
    }

    public UUID uid() {
        return uid;
    }

    public UUID masterUid() {
        return masterUid;
    }
}
