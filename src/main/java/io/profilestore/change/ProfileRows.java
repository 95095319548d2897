package io.profilestore.change;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The rows of profiles and users as the write path reads and writes them: the port {@code cassandra.ProfileDao} implements on
 * Cassandra, so that the rules of a change can be tried on rows held in memory.
 */
public interface ProfileRows {

    Optional<ProfileRow> find(UUID pid);

    /**
     * The newest version of the profile its history keeps ({@code profile_version}): the current one, or an erase's (no
     * data) when it was erased, or none.
     */
    default Optional<ProfileRow> newestVersion(UUID pid) {
        return Optional.ofNullable(newestVersions(List.of(pid)).get(pid));
    }

    /** {@link #newestVersion} of each of these pids, by pid; a pid whose history keeps nothing is left out. */
    Map<UUID, ProfileRow> newestVersions(Collection<UUID> pids);

    /** The profiles found of these pids, by pid; a pid without a row is left out. */
    Map<UUID, ProfileRow> findAll(Collection<UUID> pids);

    Optional<UserRow> findUser(UUID uid);

    /** The users found of these uids, by uid; a uid without a row is left out. */
    Map<UUID, UserRow> findUsers(Collection<UUID> uids);

    /** A row of {@code uid_pid}: the user lists the profile. */
    record Link(UUID uid, UUID pid) {
    }

    /** Which of these links exist. */
    Set<Link> existing(Collection<Link> links);

    /**
     * Every profile of one slice of the table (slices numbered from 0 to {@code slices - 1}, together all rows, each
     * once): a scan goes slice by slice and can go on from where it stopped.
     */
    Iterable<ProfileRow> scan(int slice, int slices);

    /** Every user of one slice of the table, as {@link #scan}. */
    Iterable<UserRow> scanUsers(int slice, int slices);

    /** Every link of one slice of the table (by user), as {@link #scan}. */
    Iterable<Link> scanLinks(int slice, int slices);

    /** The pids a user lists. */
    List<UUID> pidsOfUser(UUID uid);

    /**
     * Applies the writes of one change as one write at the given timestamp (microseconds, the change's fence), all
     * or nothing; returns once it is confirmed. At one timestamp a delete wins over a write of the same row, whatever
     * their order. Every profile row goes with its user's link to it
     * ({@link RowWrite.PutProfile}). The rows the change makes (no writer of their own yet) and its links say
     * {@code writer} wrote them ({@code written_by}); a row written again as it stands keeps its writer.
     *
     * @throws CassandraUnavailableException when it was not confirmed (it says whether it may have been applied)
     */
    void apply(List<RowWrite> writes, long timestampMicros, UUID writer);
}
