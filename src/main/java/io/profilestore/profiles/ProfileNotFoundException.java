package io.profilestore.profiles;

import java.util.List;
import java.util.UUID;

/** No profile has these pids (never created, or erased). */
public class ProfileNotFoundException extends RuntimeException {

    private final List<UUID> pids;

    public ProfileNotFoundException(List<UUID> pids) {
        super("no profile with pid " + pids);
        this.pids = List.copyOf(pids);
    }

    public List<UUID> pids() {
        return pids;
    }
}
