package io.profilestore.history;

import java.util.UUID;

/** The profile's history keeps no such version: it never was, its retention ran out, or it was purged. */
public class VersionNotFoundException extends RuntimeException {

    private final UUID pid;
    private final long version;

    public VersionNotFoundException(UUID pid, long version) {
        super("profile " + pid + " has no version " + version);
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
