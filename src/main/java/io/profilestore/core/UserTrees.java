package io.profilestore.core;

import io.profilestore.db.ProfileRow;
import io.profilestore.db.UserOperations.Operation;
import io.profilestore.db.UserRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** What {@link UserPlanner}'s operations share: the users of a tree, the rows read, the refusals. */
final class UserTrees {

    private UserTrees() {
    }

    /**
     * The users in the tree of {@code root} whose chain of parents reaches {@code top} ({@code top} itself left out):
     * what the journal has merged into {@code top} and not surely unmerged, as their rows say they stand now.
     */
    static Map<UUID, UserRow> below(UserReads reads, UUID top, UUID root) {
        var candidates = reads.everMergedInto(top);
        if (candidates.isEmpty()) {
            return Map.of();
        }
        var tree = new LinkedHashMap<UUID, UserRow>();
        reads.users(candidates).values().stream().filter(row -> root.equals(row.masterUid()))
                .forEach(row -> tree.put(row.uid(), row));
        var found = new LinkedHashMap<UUID, UserRow>();
        for (var row : tree.values()) {
            var seen = new HashSet<UUID>();
            for (UUID at = row.parent(); at != null && seen.add(at); at = tree.containsKey(at) ? tree.get(at).parent() : null) {
                if (at.equals(top)) {
                    found.put(row.uid(), row);
                    break;
                }
            }
        }
        return found;
    }

    /**
     * An operation a crash interrupted, on any of these users, is completed by the recovery first: until then the
     * rows may still change under what this one reads.
     */
    static void refuseWhilePending(UserReads reads, Operation operation, Collection<UUID> users) {
        if (reads.pendingOn(users, operation.opId())) {
            throw new UserOperationException(UserOperationException.Kind.CONFLICT, "an interrupted merge or unmerge of"
                    + " these users is being completed (users.recoveryDelay); retry in a few seconds");
        }
    }

    /** The documents' size as Cassandra's batch counts it: UTF-8 bytes. */
    static long bytes(Collection<ProfileRow> rows) {
        return rows.stream().mapToLong(row -> row.data().getBytes(StandardCharsets.UTF_8).length).sum();
    }

    /** The latest write time of the rows an operation replaces. */
    static long newestWrite(Collection<ProfileRow> profiles, Collection<UserRow> users) {
        return Math.max(profiles.stream().mapToLong(ProfileRow::written).max().orElse(0),
                users.stream().mapToLong(UserRow::written).max().orElse(0));
    }

    static UserRow existing(Map<UUID, UserRow> users, UUID uid) {
        var user = users.get(uid);
        if (user == null) {
            throw new UserNotFoundException(uid);
        }
        return user;
    }

    static List<UUID> withTarget(UUID target, List<UUID> sources) {
        var all = new ArrayList<>(sources);
        all.add(target);
        return all;
    }
}
