package io.profilestore.change;

import io.profilestore.cassandra.ProfileDao;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rows of profiles and users as the write path reads and writes them: the port {@link ProfileDao} implements on
 * Cassandra, so that the rules of a change can be tried on rows held in memory.
 */
public interface ProfileRows {

    Optional<ProfileRow> find(UUID pid);

    /** The profiles found of these pids, by pid; a pid without a row is left out. */
    Map<UUID, ProfileRow> findAll(Collection<UUID> pids);

    Optional<UserRow> findUser(UUID uid);

    /** The pids a user lists. */
    List<UUID> pidsOfUser(UUID uid);

    /**
     * Applies the writes of one change as one write at the given timestamp (microseconds, the change's fence), all
     * or nothing, in the order given; returns once it is confirmed. Every profile row goes with its user's link to it
     * ({@link RowWrite.PutProfile}). The rows the change makes (no writer of their own yet) and its links say
     * {@code writer} wrote them ({@code written_by}); a row written again as it stands keeps its writer.
     *
     * @throws CassandraUnavailableException when it was not confirmed (it says whether it may have been applied)
     */
    void apply(List<RowWrite> writes, long timestampMicros, UUID writer);
}
