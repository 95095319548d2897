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
import io.profilestore.change.VersionKind;
import java.math.BigInteger;
import java.time.Duration;
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

    /** The columns a profile is read with (the benchmark's raw read asks for them too). */
    public static final String PROFILE_COLUMNS =
            "pid, uid, home_uid, version, data, created_at, updated_at, WRITETIME(version) AS written, written_by, kind";
    /** A version of the history, read as a profile's row ({@link #version}). */
    static final String VERSION_COLUMNS =
            "pid, uid, version, data, created_at, changed_at, WRITETIME(changed_at) AS written, written_by, kind";

    /** Reads in flight at once for one call: well within the driver's 1,024 per connection, shared with requests. */
    static final int READS_AT_ONCE = 256;

    private final CqlSession session;
    private final IdempotentWriter writer;
    private final PreparedStatement selectProfile;
    private final PreparedStatement selectUser;
    private final PreparedStatement scanUsers;
    private final PreparedStatement selectUserProfiles;
    private final PreparedStatement scanProfiles;
    private final PreparedStatement scanLinks;
    private final PreparedStatement selectLink;
    private final PreparedStatement selectNewestVersion;
    private final RowStatements statements;

    /** @param retention how long the history keeps a version after it was replaced ({@code history.retention}) */
    public ProfileDao(CqlSession session, String keyspace, IdempotentWriter writer, Duration retention) {
        this.session = session;
        this.writer = writer;
        this.statements = new RowStatements(session, keyspace, retention);
        this.selectProfile = session.prepare("SELECT " + PROFILE_COLUMNS + " FROM " + keyspace + ".profile WHERE pid = ?");
        this.scanProfiles = session.prepare("SELECT " + PROFILE_COLUMNS + " FROM " + keyspace
                + ".profile WHERE token(pid) > ? AND token(pid) <= ?");
        String userColumns = "uid, master_uid, merged_into, version, created_at, updated_at, WRITETIME(version) AS written,"
                + " written_by";
        this.selectUser = session.prepare("SELECT " + userColumns + " FROM " + keyspace + ".persons WHERE uid = ?");
        this.scanUsers = session.prepare("SELECT " + userColumns + " FROM " + keyspace
                + ".persons WHERE token(uid) > ? AND token(uid) <= ?");
        this.selectUserProfiles = session.prepare("SELECT pid FROM " + keyspace + ".uid_pid WHERE uid = ?");
        this.scanLinks = session.prepare("SELECT uid, pid FROM " + keyspace
                + ".uid_pid WHERE token(uid) > ? AND token(uid) <= ?");
        this.selectLink = session.prepare("SELECT pid FROM " + keyspace + ".uid_pid WHERE uid = ? AND pid = ?");
        this.selectNewestVersion = session.prepare("SELECT " + VERSION_COLUMNS + " FROM " + keyspace
                + ".profile_version WHERE pid = ? LIMIT 1");
    }

    @Override
    public Map<UUID, ProfileRow> newestVersions(Collection<UUID> pids) {
        var found = new HashMap<UUID, ProfileRow>();
        readEach(pids, pid -> selectNewestVersion.bind(pid), (pid, row) -> {
            if (!row.isNull("version")) {
                found.put(pid, version(row)); // else the stream's mark alone: no version
            }
        });
        return found;
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
        var link = all.stream().filter(RowWrite.OwnLink.class::isInstance).map(RowWrite.OwnLink.class::cast).toList();
        if (link.size() == 1 && all.size() <= 3 && onePartition(all, link.get(0).row().pid())) {
            // a row alone (a put, a patch) with its version: its link names the user the row names before and after, so
            // it goes first, on its own, and no batchlog is needed; should the row then not be written, a link that was
            // right stays. The row and its version share a partition key: one mutation, applied whole on each replica
            try {
                writer.execute(statements.of(link.get(0), writtenBy).get(0).setQueryTimestamp(timestampMicros)
                        .setIdempotent(true));
            } catch (CassandraUnavailableException e) {
                throw new CassandraUnavailableException("the profile was not written: " + e.getMessage(), e, false);
            }
            var row = all.stream().filter(write -> !(write instanceof RowWrite.OwnLink))
                    .flatMap(write -> statements.of(write, writtenBy).stream()).toList();
            writer.execute(batch(DefaultBatchType.UNLOGGED, row).setQueryTimestamp(timestampMicros).setIdempotent(true));
            return;
        }
        var each = all.stream().flatMap(write -> statements.of(write, writtenBy).stream()).toList();
        writer.execute(batch(DefaultBatchType.LOGGED, each).setQueryTimestamp(timestampMicros).setIdempotent(true));
    }

    /** Whether every write but the own link is of one profile's partition (its row, its history). */
    private static boolean onePartition(List<RowWrite> writes, UUID pid) {
        return writes.stream().allMatch(write -> write instanceof RowWrite.OwnLink
                || write instanceof RowWrite.PutProfile put && put.row().pid().equals(pid)
                || write instanceof RowWrite.RecordVersion version && version.version().pid().equals(pid));
    }

    private static Statement<?> batch(DefaultBatchType type, List<BoundStatement> statements) {
        return statements.size() == 1 ? statements.get(0)
                : BatchStatement.newInstance(type, statements.toArray(BoundStatement[]::new));
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

    private static UUID writtenBy(Row row) {
        UUID writer = row.getUuid("written_by");
        return writer == null ? ProfileRow.NO_WRITER : writer;
    }

    private static UserRow user(Row row) {
        return new UserRow(row.getUuid("uid"), row.getUuid("master_uid"), row.getUuid("merged_into"), row.getLong("version"),
                row.getInstant("created_at"), row.getInstant("updated_at"), row.getLong("written"), writtenBy(row));
    }

    /** A version of the history as a profile's row: its user is its home (the history keeps no home). */
    static ProfileRow version(Row row) {
        return new ProfileRow(row.getUuid("pid"), row.getUuid("uid"), row.getUuid("uid"), row.getLong("version"),
                row.getString("data"), row.getInstant("created_at"), row.getInstant("changed_at"), row.getLong("written"),
                writtenBy(row), VersionKind.of(row.getString("kind")));
    }

    private static ProfileRow profile(Row row) {
        return new ProfileRow(row.getUuid("pid"), row.getUuid("uid"), row.getUuid("home_uid"), row.getLong("version"),
                row.getString("data"), row.getInstant("created_at"), row.getInstant("updated_at"), row.getLong("written"),
                writtenBy(row), row.getString("kind") == null ? null : VersionKind.of(row.getString("kind")));
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
