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
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Reads the final state of a run from its stores: every profile and user in Cassandra at QUORUM, the merge journal
 * from PostgreSQL, and every document of the index.
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

    FinalState read(List<String> repairs) throws Exception {
        var profiles = new HashMap<UUID, FinalState.Profile>();
        var users = new HashMap<UUID, FinalState.User>();
        try (var session = session()) {
            for (var row : session.execute(SimpleStatement.newInstance(
                    "SELECT pid, uid, home_uid, version, data FROM profiles.profile")
                    .setConsistencyLevel(ConsistencyLevel.QUORUM).setPageSize(1000).setTimeout(Duration.ofSeconds(30)))) {
                JsonNode data = parse(row.getString("data"));
                UUID home = row.getUuid("home_uid");
                profiles.put(row.getUuid("pid"), new FinalState.Profile(row.getLong("version"), row.getUuid("uid"),
                        home != null ? home : row.getUuid("uid"), data.path("w").asText(null),
                        data.path("firstName").asText(null)));
            }
            for (var row : session.execute(SimpleStatement.newInstance("SELECT uid, master_uid, merged_into FROM profiles.persons")
                    .setConsistencyLevel(ConsistencyLevel.QUORUM).setPageSize(1000).setTimeout(Duration.ofSeconds(30)))) {
                UUID master = row.getUuid("master_uid");
                UUID parent = row.getUuid("merged_into");
                users.put(row.getUuid("uid"), new FinalState.User(master, parent != null ? parent : master));
            }
        }
        return new FinalState(profiles, users, operations(), index(), repairs);
    }

    /** The journal's merges and unmerges, with the version each gave the profiles it moved. */
    private List<FinalState.Operation> operations() throws Exception {
        var env = cluster.stack.endpoints();
        var operations = new ArrayList<FinalState.Operation>();
        try (var connection = DriverManager.getConnection(cluster.postgresUrl(), env.postgresUser(), env.postgresPassword())) {
            var versions = new HashMap<UUID, Map<UUID, Long>>();
            try (var rows = connection.createStatement().executeQuery("SELECT merge_id, pid, version FROM merge_move")) {
                while (rows.next()) {
                    versions.computeIfAbsent(rows.getObject(1, UUID.class), id -> new HashMap<>())
                            .put(rows.getObject(2, UUID.class), rows.getLong(3));
                }
            }
            try (var rows = connection.createStatement().executeQuery(
                    "SELECT op_id, kind, target_uid, source_uids, merge_id, state, recorded_at FROM user_operation")) {
                while (rows.next()) {
                    var id = rows.getObject(1, UUID.class);
                    var at = rows.getTimestamp(7).toInstant();
                    long recordedAt = at.getEpochSecond() * 1_000_000_000L + at.getNano() - runStartEpochNanos;
                    operations.add(new FinalState.Operation(id, rows.getString(2), rows.getObject(3, UUID.class),
                            List.of((UUID[]) rows.getArray(4).getArray()), rows.getObject(5, UUID.class), rows.getString(6),
                            recordedAt, versions.getOrDefault(id, Map.of())));
                }
            }
        }
        return operations;
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
