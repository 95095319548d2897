package io.profilestore.twins;

import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The tables of profiles and users in memory, for unit tests of the write path. Like Cassandra, a row written at an
 * older timestamp than the one it would replace loses (last write wins), and a row keeps its write timestamp.
 */
public final class InMemoryProfileRows implements ProfileRows {

    /** One write of a change, as the write path handed it over. */
    public record Write(List<RowWrite> rows, long timestampMicros) {
    }

    private final Map<UUID, ProfileRow> profiles = new HashMap<>();
    private final Map<UUID, UserRow> users = new HashMap<>();
    private final Map<UUID, Set<UUID>> links = new HashMap<>();
    private final List<Write> writes = new ArrayList<>();
    private CassandraUnavailableException nextWriteFails;

    @Override
    public Optional<ProfileRow> find(UUID pid) {
        return Optional.ofNullable(profiles.get(pid));
    }

    @Override
    public Map<UUID, ProfileRow> findAll(Collection<UUID> pids) {
        var found = new HashMap<UUID, ProfileRow>();
        pids.stream().filter(profiles::containsKey).forEach(pid -> found.put(pid, profiles.get(pid)));
        return found;
    }

    @Override
    public Optional<UserRow> findUser(UUID uid) {
        return Optional.ofNullable(users.get(uid));
    }

    @Override
    public List<UUID> pidsOfUser(UUID uid) {
        return List.copyOf(links.getOrDefault(uid, Set.of()));
    }

    @Override
    public void apply(List<RowWrite> rows, long timestampMicros, UUID writer) {
        if (nextWriteFails != null) {
            var failure = nextWriteFails;
            nextWriteFails = null;
            throw failure;
        }
        writes.add(new Write(List.copyOf(rows), timestampMicros));
        rows.forEach(row -> write(row, timestampMicros, writer));
    }

    /** The writes handed over so far, oldest first. */
    public List<Write> writes() {
        return List.copyOf(writes);
    }

    /** The next write is not confirmed: it fails with this. */
    public void failNextWrite(CassandraUnavailableException failure) {
        nextWriteFails = failure;
    }

    /** A profile row as if written earlier, at its own {@code written} timestamp, listed by its user. */
    public void store(ProfileRow row) {
        profiles.put(row.pid(), row);
        links.computeIfAbsent(row.uid(), uid -> new LinkedHashSet<>()).add(row.pid());
    }

    public void store(UserRow user) {
        users.put(user.uid(), user);
    }

    private void write(RowWrite row, long at, UUID writer) {
        if (row instanceof RowWrite.PutProfile put) {
            var current = profiles.get(put.row().pid());
            // its user's link goes with it, as ProfileDao writes it
            links.computeIfAbsent(put.row().uid(), uid -> new LinkedHashSet<>()).add(put.row().pid());
            if (current == null || current.written() <= at) {
                var written = put.row();
                profiles.put(written.pid(), new ProfileRow(written.pid(), written.uid(), written.recordedHome(),
                        written.version(), written.data(), written.createdAt(), written.updatedAt(), at,
                        written.writtenBy() != null ? written.writtenBy() : writer));
            }
        } else if (row instanceof RowWrite.EraseProfile erase) {
            var current = profiles.get(erase.pid());
            if (current != null && current.written() <= at) {
                profiles.remove(erase.pid());
            }
        } else if (row instanceof RowWrite.PutUser put) {
            var user = put.user();
            users.put(user.uid(), new UserRow(user.uid(), user.masterUid(), user.mergedInto(), user.version(),
                    user.createdAt(), user.updatedAt(), at, user.writtenBy() != null ? user.writtenBy() : writer));
        } else if (row instanceof RowWrite.PutNewUser put) {
            users.put(put.uid(), new UserRow(put.uid(), null, null, 1, put.at(), put.at(), at, writer));
        } else if (row instanceof RowWrite.LinkProfile link) {
            links.computeIfAbsent(link.uid(), uid -> new LinkedHashSet<>()).add(link.pid());
        } else if (row instanceof RowWrite.UnlinkProfile unlink) {
            links.getOrDefault(unlink.uid(), new LinkedHashSet<>()).remove(unlink.pid());
        }
    }
}
