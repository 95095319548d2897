package io.profilestore.profiles;

import java.util.UUID;

/** A purge of a profile's history asked of a profile that stands, without the version to erase it at. */
public class ProfileNotErasedException extends RuntimeException {

    private final UUID pid;
    private final long version;

    public ProfileNotErasedException(UUID pid, long version) {
        super("profile " + pid + " stands at version " + version);
        this.pid = pid;
        this.version = version;
    }

    public UUID pid() {
        return pid;
    }

    public long version() {
        return version;
    }
}
