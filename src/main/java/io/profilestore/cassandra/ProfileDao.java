package io.profilestore.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.ProfileRows;
import io.profilestore.change.ProfileRows.Link;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UserRow;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.StreamSupport;

/**
 * The Cassandra tables of profiles and users. Reads and writes run at QUORUM (the session's default). Writes
 * carry the caller's timestamp (the lock's fence) and write every column, so the newest write wins whole.
 */
public class ProfileDao implements ProfileRows {

    private static final String PROFILE_COLUMNS =
            "pid, uid, home_uid, version, data, created_at, updated_at, WRITETIME(version) AS written, written_by";

    /** Reads in flight at once for one call: well within the driver's 1,024 per connection, shared with requests. */
    static final int READS_AT_ONCE = 256;

    private final CqlSession session;
    private final IdempotentWriter writer;
    private final PreparedStatement selectProfile;
    private final PreparedStatement selectUser;
    private final PreparedStatement scanUsers;
    private final PreparedStatement selectUserProfiles;
    private final PreparedStatement upsertUser;
    private final PreparedStatement scanProfiles;
    private final PreparedStatement insertProfile;
    private final PreparedStatement insertUser;
    private final PreparedStatement insertUserProfile;
    private final PreparedStatement deleteProfile;
    private final PreparedStatement deleteUserProfile;
    private final PreparedStatement scanLinks;
    private final PreparedStatement selectLink;

    public ProfileDao(CqlSession session, String keyspace, IdempotentWriter writer) {
        this.session = session;
        this.writer = writer;
        this.selectProfile = session.prepare("SELECT " + PROFILE_COLUMNS + " FROM " + keyspace + ".profile WHERE pid = ?");
        this.scanProfiles = session.prepare("SELECT " + PROFILE_COLUMNS + " FROM " + keyspace
                + ".profile WHERE token(pid) > ? AND token(pid) <= ?");
        String userColumns = "uid, master_uid, merged_into, version, created_at, updated_at, WRITETIME(version) AS written,"
                + " written_by";
        this.selectUser = session.prepare("SELECT " + userColumns + " FROM " + keyspace + ".persons WHERE uid = ?");
        this.scanUsers = session.prepare("SELECT " + userColumns + " FROM " + keyspace
                + ".persons WHERE token(uid) > ? AND token(uid) <= ?");
        this.selectUserProfiles = session.prepare("SELECT pid FROM " + keyspace + ".uid_pid WHERE uid = ?");
        this.upsertUser = session.prepare("INSERT INTO " + keyspace
                + ".persons (uid, master_uid, merged_into, version, created_at, updated_at, written_by)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)");
        this.insertProfile = session.prepare("INSERT INTO " + keyspace
                + ".profile (pid, uid, home_uid, version, data, created_at, updated_at, written_by)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        this.insertUser = session.prepare("INSERT INTO " + keyspace
                + ".persons (uid, master_uid, merged_into, version, created_at, updated_at, written_by)"
                + " VALUES (?, null, null, ?, ?, ?, ?)");
        this.insertUserProfile = session.prepare("INSERT INTO " + keyspace + ".uid_pid (uid, pid, written_by) VALUES (?, ?, ?)");
        this.deleteProfile = session.prepare("DELETE FROM " + keyspace + ".profile WHERE pid = ?");
        this.deleteUserProfile = session.prepare("DELETE FROM " + keyspace + ".uid_pid WHERE uid = ? AND pid = ?");
        this.scanLinks = session.prepare("SELECT uid, pid FROM " + keyspace
                + ".uid_pid WHERE token(uid) > ? AND token(uid) <= ?");
        this.selectLink = session.prepare("SELECT pid FROM " + keyspace + ".uid_pid WHERE uid = ? AND pid = ?");
    }

    @Override
    public Optional<ProfileRow> find(UUID pid) {
        return findAll(List.of(pid)).values().stream().findFirst();
    }

    /** Reads the profiles in parallel, one partition each (a multi-partition IN would load one coordinator). */
    @Override
    public Map<UUID, ProfileRow> findAll(Collection<UUID> pids) {
        var found = new HashMap<UUID, ProfileRow>();
        readEach(pids, pid -> selectProfile.bind(pid), (pid, row) -> found.put(pid, profile(row)));
        return found;
    }

    @Override
    public Optional<UserRow> findUser(UUID uid) {
        return findUsers(List.of(uid)).values().stream().findFirst();
    }

    /** Reads users in parallel, one partition each. */
    @Override
    public Map<UUID, UserRow> findUsers(Collection<UUID> uids) {
        var found = new HashMap<UUID, UserRow>();
        readEach(uids, uid -> selectUser.bind(uid), (uid, row) -> found.put(uid, user(row)));
        return found;
    }

    /** Every user of one slice of the ring, read at QUORUM a page at a time. */
    @Override
    public Iterable<UserRow> scanUsers(int slice, int slices) {
        long[] bounds = sliceBounds(slice, slices);
        var rows = session.execute(scanUsers.bind(bounds[0], bounds[1]).setPageSize(500).setIdempotent(true));
        return () -> StreamSupport.stream(rows.spliterator(), false).map(ProfileDao::user).iterator();
    }

    /**
     * The token ring cut into equal slices, the same however the cluster is laid out: a scan (reindex,
     * reconcile) goes slice by slice and can go on from where it stopped.
     */
    public static long[] sliceBounds(int slice, int slices) {
        var width = BigInteger.TWO.pow(64).divide(BigInteger.valueOf(slices));
        var from = BigInteger.valueOf(Long.MIN_VALUE).add(width.multiply(BigInteger.valueOf(slice)));
        long to = slice == slices - 1 ? Long.MAX_VALUE : from.add(width).longValueExact();
        return new long[] {from.longValueExact(), to};
    }

    /** Every profile of one slice of the ring, read at QUORUM a page at a time. */
    @Override
    public Iterable<ProfileRow> scan(int slice, int slices) {
        long[] bounds = sliceBounds(slice, slices);
        var rows = session.execute(scanProfiles.bind(bounds[0], bounds[1]).setPageSize(500).setIdempotent(true));
        return () -> StreamSupport.stream(rows.spliterator(), false).map(ProfileDao::profile).iterator();
    }


    /** Every link of one slice of the ring (by user), read at QUORUM a page at a time. */
    @Override
    public Iterable<Link> scanLinks(int slice, int slices) {
        long[] bounds = sliceBounds(slice, slices);
        var rows = session.execute(scanLinks.bind(bounds[0], bounds[1]).setPageSize(500).setIdempotent(true));
        return () -> StreamSupport.stream(rows.spliterator(), false)
                .map(row -> new Link(row.getUuid("uid"), row.getUuid("pid"))).iterator();
    }

    /** Which of these links exist, read in parallel. */
    @Override
    public Set<Link> existing(Collection<Link> links) {
        var found = new HashSet<Link>();
        readEach(links, link -> selectLink.bind(link.uid(), link.pid()), (link, row) -> found.add(link));
        return found;
    }

    /** The pids of a user: one partition of {@code uid_pid}, paged through. */
    @Override
    public List<UUID> pidsOfUser(UUID uid) {
        try {
            var pids = new ArrayList<UUID>();
            for (Row row : session.execute(selectUserProfiles.bind(uid).setIdempotent(true))) {
                pids.add(row.getUuid("pid"));
            }
            return pids;
        } catch (DriverException e) {
            throw new CassandraUnavailableException("Cassandra could not read: " + e.getMessage(), e, false);
        }
    }

    /**
     * Applies the writes as one write at the given timestamp: one statement alone, several as a logged batch (all or
     * nothing, also across partitions), in the order given. Returns once Cassandra confirmed it. Rows the change makes
     * and the links it writes carry {@code writtenBy}; a row written again as it stands keeps its own.
     */
    @Override
    public void apply(List<RowWrite> writes, long timestampMicros, UUID writtenBy) {
        var all = withOwnLinks(writes);
        if (all.size() == 2 && all.get(0) instanceof RowWrite.PutProfile && all.get(1) instanceof RowWrite.OwnLink link) {
            // a row alone (a put, a patch): its link names the user the row names before and after, so it goes first,
            // on its own, and no batchlog is needed; should the row then not be written, a link that was right stays
            try {
                writer.execute(statementOf(link, writtenBy).setQueryTimestamp(timestampMicros).setIdempotent(true));
            } catch (CassandraUnavailableException e) {
                throw new CassandraUnavailableException("the profile was not written: " + e.getMessage(), e, false);
            }
            writer.execute(statementOf(all.get(0), writtenBy).setQueryTimestamp(timestampMicros).setIdempotent(true));
            return;
        }
        var statements = all.stream().map(write -> statementOf(write, writtenBy)).toList();
        Statement<?> write = statements.size() == 1
                ? statements.get(0)
                : BatchStatement.newInstance(DefaultBatchType.LOGGED, statements.toArray(BoundStatement[]::new));
        writer.execute(write.setQueryTimestamp(timestampMicros).setIdempotent(true));
    }

    /**
     * The writes, and for every profile row among them its user's link to it ({@code uid_pid}), unless they hold it
     * already: see {@link RowWrite.PutProfile}.
     */
    static List<RowWrite> withOwnLinks(List<RowWrite> writes) {
        var all = new ArrayList<>(writes);
        var linked = new HashSet<List<UUID>>();
        writes.stream().filter(RowWrite.LinkProfile.class::isInstance).map(RowWrite.LinkProfile.class::cast)
                .forEach(link -> linked.add(List.of(link.uid(), link.pid())));
        for (var write : writes) {
            if (write instanceof RowWrite.PutProfile put && linked.add(List.of(put.row().uid(), put.row().pid()))) {
                all.add(new RowWrite.OwnLink(put.row()));
            }
        }
        return all;
    }

    /** Every column of a row is bound, so that the newest write wins whole. */
    private BoundStatement statementOf(RowWrite write, UUID writer) {
        if (write instanceof RowWrite.PutProfile put) {
            var row = put.row();
            return insertProfile.bind(row.pid(), row.uid(), row.recordedHome(), row.version(), row.data(),
                    row.createdAt(), row.updatedAt(), writerOf(row.writtenBy(), writer));
        }
        if (write instanceof RowWrite.EraseProfile erase) {
            return deleteProfile.bind(erase.pid());
        }
        if (write instanceof RowWrite.PutUser put) {
            var user = put.user();
            return upsertUser.bind(user.uid(), user.masterUid(), user.mergedInto(), user.version(), user.createdAt(),
                    user.updatedAt(), writerOf(user.writtenBy(), writer));
        }
        if (write instanceof RowWrite.PutNewUser put) {
            return insertUser.bind(put.uid(), 1L, put.at(), put.at(), writer);
        }
        if (write instanceof RowWrite.LinkProfile link) {
            return insertUserProfile.bind(link.uid(), link.pid(), writer);
        }
        if (write instanceof RowWrite.OwnLink own) {
            return insertUserProfile.bind(own.row().uid(), own.row().pid(), writerOf(own.row().writtenBy(), writer));
        }
        if (write instanceof RowWrite.UnlinkProfile unlink) {
            return deleteUserProfile.bind(unlink.uid(), unlink.pid());
        }
        // RowWrite is sealed; Java 17 cannot check a chain of instanceof for exhaustiveness
        throw new IllegalArgumentException("no statement for " + write.getClass());
    }

    /**
     * The writer a row is written with: the change's for a row it makes (none of its own yet), its own for a row written
     * again as it stands ({@link ProfileRow#NO_WRITER}, none, for a row from before {@code written_by} was kept).
     */
    private static UUID writerOf(UUID own, UUID change) {
        return own == null ? change : ProfileRow.NO_WRITER.equals(own) ? null : own;
    }

    private static UUID writtenBy(Row row) {
        UUID writer = row.getUuid("written_by");
        return writer == null ? ProfileRow.NO_WRITER : writer;
    }

    private static UserRow user(Row row) {
        return new UserRow(row.getUuid("uid"), row.getUuid("master_uid"), row.getUuid("merged_into"), row.getLong("version"),
                row.getInstant("created_at"), row.getInstant("updated_at"), row.getLong("written"), writtenBy(row));
    }

    private static ProfileRow profile(Row row) {
        return new ProfileRow(row.getUuid("pid"), row.getUuid("uid"), row.getUuid("home_uid"), row.getLong("version"),
                row.getString("data"), row.getInstant("created_at"), row.getInstant("updated_at"), row.getLong("written"),
                writtenBy(row));
    }

    /**
     * Reads one row per key, {@link #READS_AT_ONCE} at a time, and hands over each key whose row exists. Unbounded,
     * a few thousand keys (a reconcile after an outage) took every stream of the connection to a node, and the driver
     * refused the rest as "no connection was available".
     */
    private <K> void readEach(Collection<K> keys, Function<K, BoundStatement> select, BiConsumer<K, Row> found) {
        var batch = new LinkedHashMap<K, CompletableFuture<AsyncResultSet>>();
        for (K key : keys) {
            batch.put(key, session.executeAsync(select.apply(key).setIdempotent(true)).toCompletableFuture());
            if (batch.size() == READS_AT_ONCE) {
                collect(batch, found);
            }
        }
        collect(batch, found);
    }

    private static <K> void collect(Map<K, CompletableFuture<AsyncResultSet>> batch, BiConsumer<K, Row> found) {
        batch.forEach((key, read) -> {
            Row row = await(read).one();
            if (row != null) {
                found.accept(key, row);
            }
        });
        batch.clear();
    }

    private static AsyncResultSet await(CompletableFuture<AsyncResultSet> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof DriverException driver) {
                throw new CassandraUnavailableException("Cassandra could not read: " + driver.getMessage(), driver, false);
            }
            throw e;
        }
    }
}
