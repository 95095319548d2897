package io.profilestore.api;

import jakarta.validation.constraints.NotNull;
import java.util.List;
import java.util.UUID;

/** The bodies of the user operations. */
public final class UserRequests {

    private UserRequests() {
    }

    /** {@code PUT /v1/profiles/{pid}/user}: the user the profile moves to. */
    public record Move(@NotNull UUID uid) {
    }

    /**
     * {@code POST /v1/users/{uid}/merge}: the users merged into {@code uid}. Which sources make a merge (how many,
     * no null, none twice) the core decides: the limit is configured.
     */
    public record Merge(@NotNull List<UUID> sources) {
    }

    /**
     * {@code POST /v1/users/{uid}/unmerge}: the source to take out again, or a whole merge by its id; that it names
     * exactly one of them the core checks, as it answers the other refusals of an unmerge.
     */
    public record Unmerge(UUID source, UUID mergeId) {
    }
}
