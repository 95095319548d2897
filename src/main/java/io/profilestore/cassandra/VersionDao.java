package io.profilestore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.VersionRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The history of profiles ({@code profile_version}) as the API reads it, at QUORUM: one partition per pid, newest
 * version first. What {@link ProfileDao#apply} wrote with each change.
 */
public class VersionDao implements VersionRows {

    /** Versions read in one page while looking for the one current at a moment. */
    static final int AS_OF_PAGE = 100;
    /** Versions read in one page while looking for those the change stream has yet to publish. */
    static final int STREAM_PAGE = 100;

    private final CqlSession session;
    private final PreparedStatement page;
    private final PreparedStatement one;
    private final PreparedStatement changedBefore;
    private final PreparedStatement unstreamed;
    private final PreparedStatement markStreamed;

    public VersionDao(CqlSession session, String keyspace) {
        this.session = session;
        String from = "SELECT " + ProfileDao.VERSION_COLUMNS + " FROM " + keyspace + ".profile_version WHERE pid = ?";
        this.page = session.prepare(from + " AND version < ? LIMIT ?");
        this.one = session.prepare(from + " AND version = ?");
        this.changedBefore = session.prepare("SELECT version, changed_at FROM " + keyspace + ".profile_version WHERE pid = ?");
        this.unstreamed = session.prepare("SELECT streamed_through, " + ProfileDao.VERSION_COLUMNS + " FROM " + keyspace
                + ".profile_version WHERE pid = ? LIMIT ?");
        this.markStreamed = session.prepare("UPDATE " + keyspace + ".profile_version USING TIMESTAMP ?"
                + " SET streamed_through = ? WHERE pid = ?");
    }

    @Override
    public List<ProfileRow> versions(UUID pid, long below, int limit) {
        return read(() -> {
            var versions = new ArrayList<ProfileRow>();
            for (Row row : session.execute(page.bind(pid, below, limit).setIdempotent(true))) {
                versions.add(ProfileDao.version(row));
            }
            return versions;
        });
    }

    @Override
    public Optional<ProfileRow> version(UUID pid, long version) {
        return read(() -> Optional.ofNullable(session.execute(one.bind(pid, version).setIdempotent(true)).one())
                .map(ProfileDao::version));
    }

    /**
     * Goes down the partition's keys and times (not its documents) a page at a time to the newest version made at or
     * before the moment, then reads that one whole.
     */
    @Override
    public Optional<ProfileRow> asOf(UUID pid, Instant at) {
        return read(() -> {
            for (Row row : session.execute(changedBefore.bind(pid).setPageSize(AS_OF_PAGE).setIdempotent(true))) {
                Instant changed = row.getInstant("changed_at");
                if (changed != null && !changed.isAfter(at)) {
                    return Optional.ofNullable(session.execute(one.bind(pid, row.getLong("version")).setIdempotent(true))
                            .one()).map(ProfileDao::version);
                }
            }
            return Optional.<ProfileRow>empty();
        });
    }

    /**
     * The partition's newest versions down to the first at or below the one streamed through (the static column comes
     * with each row), in
     * pages of {@link #AS_OF_PAGE}. A partition with no version left (expired, or only its mark) has none to stream.
     */
    @Override
    public Unstreamed unstreamed(UUID pid, int limit) {
        return read(() -> {
            long through = 0;
            ProfileRow previous = null;
            var above = new ArrayList<ProfileRow>();
            for (Row row : session.execute(unstreamed.bind(pid, limit).setPageSize(STREAM_PAGE).setIdempotent(true))) {
                through = row.isNull("streamed_through") ? 0 : row.getLong("streamed_through");
                if (row.isNull("version")) {
                    break; // the mark alone
                }
                if (row.getLong("version") <= through) {
                    previous = ProfileDao.version(row);
                    break;
                }
                above.add(ProfileDao.version(row));
            }
            Collections.reverse(above);
            return new Unstreamed(through, previous, above);
        });
    }

    @Override
    public void streamedThrough(UUID pid, long version, long written) {
        try {
            session.execute(markStreamed.bind(written, version, pid).setIdempotent(true));
        } catch (DriverException e) {
            throw new CassandraUnavailableException("Cassandra did not confirm the stream's mark: " + e.getMessage(), e,
                    true);
        }
    }

    private static <T> T read(Supplier<T> read) {
        try {
            return read.get();
        } catch (DriverException e) {
            throw new CassandraUnavailableException("Cassandra could not read: " + e.getMessage(), e, false);
        }
    }
}
