package io.profilestore.profiles;

import java.util.Map;
import java.util.UUID;

/** The caller's version of some profiles is not the current one: it changed since the caller read it. */
public class VersionMismatchException extends RuntimeException {

    private final Map<UUID, Long> currentVersions;

    public VersionMismatchException(Map<UUID, Long> currentVersions) {
        super("stale version for " + currentVersions.keySet());
        this.currentVersions = Map.copyOf(currentVersions);
    }

    /** The current version of each profile whose given version was stale. */
    public Map<UUID, Long> currentVersions() {
        return currentVersions;
    }
}
