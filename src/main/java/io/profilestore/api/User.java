package io.profilestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.UUID;

/**
 * A user and its profiles. Asked for a merged user, the answer is its master, and {@code resolvedFrom} says which
 * uid was asked.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record User(UUID uid, UUID masterUid, UUID resolvedFrom, long version, List<Profile> profiles) {
}
