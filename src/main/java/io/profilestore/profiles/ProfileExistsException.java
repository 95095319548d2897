package io.profilestore.profiles;

import java.util.Map;
import java.util.UUID;

/** A create at a given pid (If-None-Match: *) where a profile stands: nothing was created. */
public class ProfileExistsException extends RuntimeException {

    private final UUID pid;
    private final long version;

    public ProfileExistsException(UUID pid, long version) {
        super("a profile exists at " + pid);
        this.pid = pid;
        this.version = version;
    }

    public Map<UUID, Long> currentVersions() {
        return Map.of(pid, version);
    }
}
