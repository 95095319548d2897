package io.profilestore.twins;

import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserRow;
import io.profilestore.change.VersionRows;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The tables of profiles and users in memory, for unit tests of the write path. Like Cassandra, a row written at an
 * older timestamp than the one it would replace loses (last write wins), a row keeps its write timestamp, and its times
 * keep milliseconds. The history of profiles is kept too ({@link VersionRows}), without its retention: nothing expires
 * here. {@code contracts.ProfileRowsContract} and {@code contracts.VersionRowsContract} hold it to Cassandra.
 */
public final class InMemoryProfileRows implements ProfileRows, VersionRows {

    /** One write of a change, as the write path handed it over. */
    public record Write(List<RowWrite> rows, long timestampMicros) {
    }

    private final Map<UUID, ProfileRow> profiles = new HashMap<>();
    /** When an erased profile's row was deleted: an older write of it loses to the delete, as to a tombstone. */
    private final Map<UUID, Long> erasedAt = new HashMap<>();
    private final Map<UUID, UserRow> users = new HashMap<>();
    /** Each user's links with the timestamp of their last write; an unlink keeps its timestamp (a tombstone). */
    private final Map<UUID, Map<UUID, Stamped>> links = new HashMap<>();
    /** Each profile's versions, newest first, each with the timestamp of its last write (a forgotten one: null row). */
    private final Map<UUID, TreeMap<Long, StampedVersion>> versions = new HashMap<>();
    /**
     * When a profile's history was purged and below which version: an older write of such a version loses to it, as to
     * a range tombstone.
     */
    private final Map<UUID, Purge> purged = new HashMap<>();
    /** How far the change stream published each profile's versions, and the mark's write time. */
    private final Map<UUID, Mark> streamedThrough = new HashMap<>();
    private final List<Write> writes = new ArrayList<>();
    private CassandraUnavailableException nextWriteFails;

    @Override
    public Optional<ProfileRow> find(UUID pid) {
        return Optional.ofNullable(profiles.get(pid));
    }

    @Override
    public Map<UUID, ProfileRow> newestVersions(Collection<UUID> pids) {
        var found = new HashMap<UUID, ProfileRow>();
        pids.forEach(pid -> versions(pid, Long.MAX_VALUE, 1).stream().findFirst().ifPresent(row -> found.put(pid, row)));
        return found;
    }

    @Override
    public List<ProfileRow> versions(UUID pid, long below, int limit) {
        return versions.getOrDefault(pid, new TreeMap<>()).headMap(below, false).descendingMap().values().stream()
                .map(StampedVersion::row).filter(Objects::nonNull).limit(limit).toList();
    }

    @Override
    public Optional<ProfileRow> version(UUID pid, long version) {
        return versions(pid, version + 1, 1).stream().filter(row -> row.version() == version).findFirst();
    }

    @Override
    public Optional<ProfileRow> asOf(UUID pid, Instant at) {
        return versions(pid, Long.MAX_VALUE, Integer.MAX_VALUE).stream().filter(row -> !row.updatedAt().isAfter(at))
                .findFirst();
    }

    @Override
    public Unstreamed unstreamed(UUID pid, int limit) {
        long through = streamedThrough.containsKey(pid) ? streamedThrough.get(pid).version() : 0;
        var newest = versions(pid, Long.MAX_VALUE, limit);
        var above = new ArrayList<>(newest.stream().takeWhile(row -> row.version() > through).toList());
        var previous = newest.stream().filter(row -> row.version() <= through).findFirst().orElse(null);
        Collections.reverse(above);
        return new Unstreamed(through, previous, above);
    }

    @Override
    public void streamedThrough(UUID pid, long version, long written) {
        var current = streamedThrough.get(pid);
        // the newest write stands; at a tie the larger value, as Cassandra keeps it
        if (current == null || current.at() < written || current.at() == written && current.version() < version) {
            streamedThrough.put(pid, new Mark(version, written));
        }
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
    public Map<UUID, UserRow> findUsers(Collection<UUID> uids) {
        var found = new HashMap<UUID, UserRow>();
        uids.stream().filter(users::containsKey).forEach(uid -> found.put(uid, users.get(uid)));
        return found;
    }

    @Override
    public Set<Link> existing(Collection<Link> wanted) {
        var found = new LinkedHashSet<Link>();
        wanted.stream().filter(this::listed).forEach(found::add);
        return found;
    }

    @Override
    public Iterable<ProfileRow> scan(int slice, int slices) {
        return profiles.values().stream().filter(row -> inSlice(row.pid(), slice, slices)).toList();
    }

    @Override
    public Iterable<UserRow> scanUsers(int slice, int slices) {
        return users.values().stream().filter(row -> inSlice(row.uid(), slice, slices)).toList();
    }

    @Override
    public Iterable<Link> scanLinks(int slice, int slices) {
        return links.entrySet().stream().filter(user -> inSlice(user.getKey(), slice, slices))
                .flatMap(user -> user.getValue().entrySet().stream().filter(link -> link.getValue().listed())
                        .map(link -> new Link(user.getKey(), link.getKey())))
                .toList();
    }

    @Override
    public List<UUID> pidsOfUser(UUID uid) {
        return links.getOrDefault(uid, Map.of()).entrySet().stream().filter(link -> link.getValue().listed())
                .map(Map.Entry::getKey).toList();
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
        link(new Link(row.uid(), row.pid()), true, row.written());
    }

    public void store(UserRow user) {
        users.put(user.uid(), user);
    }

    private void write(RowWrite row, long at, UUID writer) {
        if (row instanceof RowWrite.PutProfile put) {
            var written = put.row();
            // its user's link goes with it, at the same timestamp, as ProfileDao writes it
            link(new Link(written.uid(), written.pid()), true, at);
            var current = profiles.get(written.pid());
            boolean newer = current == null ? at > erasedAt.getOrDefault(written.pid(), Long.MIN_VALUE)
                    : current.written() <= at;
            if (newer) {
                profiles.put(written.pid(), new ProfileRow(written.pid(), written.uid(), written.recordedHome(),
                        written.version(), written.data(), millis(written.createdAt()), millis(written.updatedAt()), at,
                        written.writtenBy() != null ? written.writtenBy() : writer, written.recordedKind()));
            }
        } else if (row instanceof RowWrite.RecordVersion recorded) {
            version(recorded.version(), at, writer);
            if (recorded.replaced() != null) {
                version(recorded.replaced(), at, writer);
            }
        } else if (row instanceof RowWrite.PurgeVersions purge) {
            purged.put(purge.pid(), new Purge(purge.below(), at));
            versions.getOrDefault(purge.pid(), new TreeMap<>()).headMap(purge.below(), false).values()
                    .removeIf(version -> version.at() <= at);
        } else if (row instanceof RowWrite.ForgetVersion forget) {
            stampVersion(forget.pid(), forget.version(), new StampedVersion(null, at));
        } else if (row instanceof RowWrite.OwnLink own) {
            link(new Link(own.row().uid(), own.row().pid()), true, at);
        } else if (row instanceof RowWrite.EraseProfile erase) {
            var current = profiles.get(erase.pid());
            if (current == null || current.written() <= at) {
                profiles.remove(erase.pid());
                erasedAt.merge(erase.pid(), at, Math::max);
            }
        } else if (row instanceof RowWrite.PutUser put) {
            var user = put.user();
            putUser(new UserRow(user.uid(), user.masterUid(), user.mergedInto(), user.version(),
                    millis(user.createdAt()), millis(user.updatedAt()), at,
                    user.writtenBy() != null ? user.writtenBy() : writer));
        } else if (row instanceof RowWrite.PutNewUser put) {
            putUser(new UserRow(put.uid(), null, null, 1, millis(put.at()), millis(put.at()), at, writer));
        } else if (row instanceof RowWrite.LinkProfile link) {
            link(new Link(link.uid(), link.pid()), true, at);
        } else if (row instanceof RowWrite.UnlinkProfile unlink) {
            link(new Link(unlink.uid(), unlink.pid()), false, at);
        }
    }

    /** A version as Cassandra reads it back: its user as its home, its times to the millisecond, its writer. */
    private void version(ProfileRow version, long at, UUID writer) {
        var row = new ProfileRow(version.pid(), version.uid(), version.uid(), version.version(), version.data(),
                millis(version.createdAt()), millis(version.updatedAt()), at,
                version.writtenBy() != null ? version.writtenBy() : writer, version.kind());
        stampVersion(version.pid(), version.version(), new StampedVersion(row, at));
    }

    /** The newest write of a version stands; at a tie a delete wins, as in Cassandra. */
    private void stampVersion(UUID pid, long version, StampedVersion stamped) {
        var purge = purged.get(pid);
        if (purge != null && version < purge.below() && stamped.at() <= purge.at()) {
            return;
        }
        var ofPid = versions.computeIfAbsent(pid, p -> new TreeMap<>());
        var current = ofPid.get(version);
        if (current == null || current.at() < stamped.at() || current.at() == stamped.at() && stamped.row() == null) {
            ofPid.put(version, stamped);
        }
    }

    private void putUser(UserRow user) {
        var current = users.get(user.uid());
        if (current == null || current.written() <= user.written()) {
            users.put(user.uid(), user);
        }
    }

    /** A link written (or deleted) at a timestamp: the newest stands; at a tie the delete wins, as in Cassandra. */
    private void link(Link link, boolean listed, long at) {
        var ofUser = links.computeIfAbsent(link.uid(), uid -> new LinkedHashMap<>());
        var current = ofUser.get(link.pid());
        if (current == null || current.at() < at || current.at() == at && !listed) {
            ofUser.put(link.pid(), new Stamped(listed, at));
        }
    }

    private boolean listed(Link link) {
        var stamped = links.getOrDefault(link.uid(), Map.of()).get(link.pid());
        return stamped != null && stamped.listed();
    }

    /** A time as a {@code timestamp} column keeps it: to the millisecond. */
    private static Instant millis(Instant at) {
        return at == null ? null : at.truncatedTo(ChronoUnit.MILLIS);
    }

    /** The same slices of any table's keys, however many: each key in exactly one. */
    private static boolean inSlice(UUID key, int slice, int slices) {
        return Math.floorMod(key.hashCode(), slices) == slice;
    }

    private record Stamped(boolean listed, long at) {
    }

    private record StampedVersion(ProfileRow row, long at) {
    }

    private record Purge(long below, long at) {
    }

    private record Mark(long version, long at) {
    }
}
