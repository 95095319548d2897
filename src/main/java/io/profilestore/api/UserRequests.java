package io.profilestore.api;

import java.util.List;
import java.util.UUID;

/** The bodies of the user operations. */
public final class UserRequests {

    private UserRequests() {
    }

    /** {@code PUT /v1/profiles/{pid}/user}: the user the profile moves to. */
    public record Move(UUID uid) {
    }

    /** {@code POST /v1/users/{uid}/merge}: the users merged into {@code uid}. */
    public record Merge(List<UUID> sources) {
    }

    /** {@code POST /v1/users/{uid}/unmerge}: the source to take out again, or a whole merge by its id. */
    public record Unmerge(UUID source, UUID mergeId) {
    }
}
