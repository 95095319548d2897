package io.profilestore.db;

import java.util.UUID;

/** A row of {@code persons}: {@code masterUid} is set when the user was merged into another. */
public record UserRow(UUID uid, UUID masterUid, long version) {
}
