package io.profilestore.faults;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the final state of a run from its stores: every profile, user and link in Cassandra at QUORUM, the merge
 * journal and the audit trail's record of changes from PostgreSQL, and every document of the index.
 */
final class FinalStateReader {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Cluster cluster;
    /** When the run began, on the wall clock (ns since the epoch): the journal's times are told against it. */
    private final long runStartEpochNanos;

    FinalStateReader(Cluster cluster, long runStartEpochNanos) {
        this.cluster = cluster;
        this.runStartEpochNanos = runStartEpochNanos;
    }

    /**
     * The state as the stores hold it: profiles, users and links with who wrote them, the journal, the audit trail's
     * record of changes, the index; {@code repairs}, what check-tables then found in it.
     */
    FinalState read(List<String> repairs) throws Exception {
        var profiles = new HashMap<UUID, FinalState.Profile>();
        var users = new HashMap<UUID, FinalState.User>();
        var links = new HashSet<FinalState.Link>();
        try (var session = session()) {
            for (var row : session.execute(quorum("SELECT pid, uid, home_uid, version, data, written_by FROM profiles.profile"))) {
                JsonNode data = parse(row.getString("data"));
                UUID home = row.getUuid("home_uid");
                profiles.put(row.getUuid("pid"), new FinalState.Profile(row.getLong("version"), row.getUuid("uid"),
                        home != null ? home : row.getUuid("uid"), data.path("w").asText(null),
                        data.path("firstName").asText(null), row.getUuid("written_by")));
            }
            for (var row : session.execute(quorum("SELECT uid, master_uid, merged_into, written_by FROM profiles.persons"))) {
                UUID master = row.getUuid("master_uid");
                UUID parent = row.getUuid("merged_into");
                users.put(row.getUuid("uid"), new FinalState.User(master, parent != null ? parent : master,
                        row.getUuid("written_by")));
            }
            for (var row : session.execute(quorum("SELECT uid, pid, written_by FROM profiles.uid_pid"))) {
                links.add(new FinalState.Link(row.getUuid("uid"), row.getUuid("pid"), row.getUuid("written_by")));
            }
        }
        try (var connection = DriverManager.getConnection(cluster.postgresUrl(), cluster.stack.endpoints().postgresUser(),
                cluster.stack.endpoints().postgresPassword())) {
            return new FinalState(profiles, users, links, operations(connection), audit(connection), index(), repairs);
        }
    }

    private static SimpleStatement quorum(String cql) {
        return SimpleStatement.newInstance(cql).setConsistencyLevel(ConsistencyLevel.QUORUM).setPageSize(1000)
                .setTimeout(Duration.ofSeconds(30));
    }

    /** The journal's merges and unmerges, with what each moved, at which version. */
    private List<FinalState.Operation> operations(Connection connection) throws SQLException {
        var moves = new HashMap<UUID, Map<UUID, FinalState.Move>>();
        try (var rows = connection.createStatement().executeQuery("""
                SELECT m.merge_id, m.pid, m.from_uid, coalesce(m.home_uid, m.from_uid), coalesce(m.to_uid, o.target_uid),
                       coalesce(m.version, 0)
                  FROM merge_move m JOIN user_operation o ON o.op_id = m.merge_id
                """)) {
            while (rows.next()) {
                moves.computeIfAbsent(rows.getObject(1, UUID.class), id -> new HashMap<>()).put(rows.getObject(2, UUID.class),
                        new FinalState.Move(rows.getObject(3, UUID.class), rows.getObject(4, UUID.class),
                                rows.getObject(5, UUID.class), rows.getLong(6)));
            }
        }
        var operations = new ArrayList<FinalState.Operation>();
        try (var rows = connection.createStatement().executeQuery("SELECT op_id, request_id, kind, target_uid, source_uids,"
                + " merge_id, state, recorded_at, finished_at FROM user_operation")) {
            while (rows.next()) {
                var id = rows.getObject(1, UUID.class);
                var finished = rows.getTimestamp(9);
                operations.add(new FinalState.Operation(id, rows.getObject(2, UUID.class), rows.getString(3),
                        rows.getObject(4, UUID.class), List.of((UUID[]) rows.getArray(5).getArray()),
                        rows.getObject(6, UUID.class), rows.getString(7), sinceStart(rows.getTimestamp(8)),
                        finished == null ? null : sinceStart(finished), moves.getOrDefault(id, Map.of())));
            }
        }
        return operations;
    }

    /**
     * What the audit trail recorded of changes: when each request's change was recorded (the first, should a request
     * have several), and the system's own changes. Look-ups (GETs) are left out.
     */
    private FinalState.Audit audit(Connection connection) throws SQLException {
        var recorded = new HashMap<UUID, Long>();
        var system = new ArrayList<FinalState.SystemChange>();
        try (var rows = connection.createStatement().executeQuery("SELECT request_id, at, actor_kind, action, pids"
                + " FROM audit_record WHERE request_id IS NOT NULL AND action NOT LIKE 'GET %' ORDER BY id")) {
            while (rows.next()) {
                var id = rows.getObject(1, UUID.class);
                long at = sinceStart(rows.getTimestamp(2));
                if ("SYSTEM".equals(rows.getString(3))) {
                    system.add(new FinalState.SystemChange(rows.getString(4), id, List.of((UUID[]) rows.getArray(5).getArray()),
                            at));
                } else {
                    recorded.merge(id, at, Math::min);
                }
            }
        }
        return new FinalState.Audit(recorded, system);
    }

    /** A time of PostgreSQL's clock, in nanoseconds since the run began (the history's times). */
    private long sinceStart(Timestamp timestamp) {
        var at = timestamp.toInstant();
        return at.getEpochSecond() * 1_000_000_000L + at.getNano() - runStartEpochNanos;
    }

    /** Every document of the index: its version, user and first name, a page at a time in pid order. */
    private Map<UUID, FinalState.Document> index() throws Exception {
        var es = URI.create(cluster.stack.endpoints().elasticsearchUrl());
        var documents = new HashMap<UUID, FinalState.Document>();
        String after = null;
        while (true) {
            var body = Workload.JSON.createObjectNode();
            body.put("size", 1000);
            body.putArray("sort").addObject().put("pid", "asc");
            body.putArray("_source").add("version").add("uid").add("firstName");
            if (after != null) {
                body.putArray("search_after").add(after);
            }
            var reply = HTTP.send(HttpRequest.newBuilder(es.resolve("/profiles/_search"))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (reply.statusCode() != 200) {
                throw new IllegalStateException("Elasticsearch answered " + reply.statusCode());
            }
            var hits = Workload.JSON.readTree(reply.body()).path("hits").path("hits");
            if (hits.isEmpty()) {
                return documents;
            }
            for (var hit : hits) {
                var source = hit.path("_source");
                String uid = source.path("uid").asText(null);
                documents.put(UUID.fromString(hit.path("_id").asText()), new FinalState.Document(
                        source.path("version").asLong(-1), uid == null ? null : UUID.fromString(uid),
                        source.path("firstName").asText(null)));
                after = hit.path("sort").get(0).asText();
            }
        }
    }

    /** Every version the profiles' history holds (cql/0004), for the change stream's check. */
    List<StreamCheck.Version> versions() {
        var versions = new ArrayList<StreamCheck.Version>();
        try (var session = session()) {
            for (var row : session.execute(quorum("SELECT pid, version, kind FROM profiles.profile_version"))) {
                if (!row.isNull("version")) {
                    versions.add(new StreamCheck.Version(row.getUuid("pid"), row.getLong("version"), row.getString("kind")));
                }
            }
        }
        return versions;
    }

    private CqlSession session() {
        var builder = CqlSession.builder().withLocalDatacenter(cluster.stack.endpoints().cassandraDatacenter());
        for (var point : cluster.stack.endpoints().cassandraContactPoints()) {
            int colon = point.lastIndexOf(':');
            builder.addContactPoint(new InetSocketAddress(point.substring(0, colon), Integer.parseInt(point.substring(colon + 1))));
        }
        return builder.build();
    }

    private static JsonNode parse(String data) {
        try {
            return Workload.JSON.readTree(data);
        } catch (Exception e) {
            return Workload.JSON.createObjectNode();
        }
    }
}
