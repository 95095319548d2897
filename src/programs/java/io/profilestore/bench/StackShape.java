package io.profilestore.bench;

import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import io.profilestore.stack.StackSettings;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * What the benchmark runs on, read from the running services, not from the settings: a stack folder whose services
 * are running keeps what they were started with (and a keyspace the replication it was created with), whatever the
 * settings say now. A run that asked for another shape stops before it measures anything.
 *
 * @param cassandraNodes the nodes the driver sees up
 * @param contactPoints the service's, from the configuration it runs with (the driver finds the other nodes from
 *     one, but a service that knows one node cannot start while that node is down)
 * @param replication the service's keyspace's replication, as Cassandra holds it
 * @param consistency the consistency of every request of the session the service and the raw baselines use
 * @param postgres PostgreSQL's settings of {@link #DURABILITY}
 */
record StackShape(int cassandraNodes, List<String> contactPoints, Map<String, String> replication, String consistency,
        Map<String, String> postgres) {

    /** The settings that make PostgreSQL's commits wait for the disk; each must be on for a durable run. */
    static final List<String> DURABILITY = List.of("fsync", "synchronous_commit", "full_page_writes");

    static StackShape read(List<String> contactPoints) {
        var session = TestStack.backends().cassandra();
        var metadata = session.getMetadata();
        String keyspace = TestStack.configuration().cassandra.keyspace;
        var replication = metadata.getKeyspace(keyspace).map(KeyspaceMetadata::getReplication)
                .orElseThrow(() -> new IllegalStateException("no keyspace " + keyspace));
        return new StackShape(
                (int) metadata.getNodes().values().stream().filter(node -> node.getState() == NodeState.UP).count(),
                List.copyOf(contactPoints), new TreeMap<>(replication),
                session.getContext().getConfig().getDefaultProfile().getString(DefaultDriverOption.REQUEST_CONSISTENCY),
                postgresSettings(TestStack.asOwner()));
    }

    private static Map<String, String> postgresSettings(DataSource postgres) {
        var settings = new LinkedHashMap<String, String>();
        try (var connection = postgres.getConnection(); var statement = connection.createStatement()) {
            for (String name : DURABILITY) {
                try (var rows = statement.executeQuery("SHOW " + name)) {
                    rows.next();
                    settings.put(name, rows.getString(1));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read PostgreSQL's settings", e);
        }
        return settings;
    }

    boolean postgresDurable() {
        return DURABILITY.stream().allMatch(name -> "on".equals(postgres.get(name)));
    }

    /**
     * How many replicas hold each row: SimpleStrategy's factor, or NetworkTopologyStrategy's fewest of a data centre
     * (this stack has one).
     */
    int replicationFactor() {
        if (replication.getOrDefault("class", "").endsWith("SimpleStrategy")) {
            return Integer.parseInt(replication.get("replication_factor"));
        }
        return replication.entrySet().stream().filter(e -> !e.getKey().equals("class"))
                .mapToInt(e -> Integer.parseInt(e.getValue())).min().orElse(0);
    }

    /** Refuses a stack of another shape than the options ask for, saying why it may be so and what to do. */
    void check(BenchOptions options) {
        String stop = "Stop the stack first (" + stopCommand(StackSettings.fromEnvironment()) + ", with the same ports)";
        if (postgresDurable() == options.postgresFast()) {
            throw new IllegalStateException(String.format("the run asks for PostgreSQL %s, but the stack's runs with %s:"
                    + " a running server keeps the settings it was started with. %s",
                    options.postgresFast() ? "without fsync (--postgres-fast)" : "durable", postgresSettings(), stop));
        }
        if (cassandraNodes != options.cluster()) {
            throw new IllegalStateException(String.format("the run asks for %d Cassandra nodes, but the stack has %d up:"
                    + " ./bench/run --cluster 3 runs a stack folder of its own; a stack folder keeps its nodes while they"
                    + " run. %s", options.cluster(), cassandraNodes, stop));
        }
        if (contactPoints.size() != options.cluster()) {
            throw new IllegalStateException(String.format("the run asks for %d Cassandra nodes, but the service is"
                    + " configured with %s: the stack's endpoints should name every node", options.cluster(),
                    contactPoints));
        }
        if (replicationFactor() != options.cluster()) {
            throw new IllegalStateException(String.format("the run asks for replication factor %d, but the keyspace has"
                    + " %s: a keyspace keeps the replication it was created with (./bench/run sets"
                    + " CASSANDRA_REPLICATION_FACTOR for migrate); use a stack folder of its own",
                    options.cluster(), replication));
        }
    }

    /**
     * What stops this stack: {@code ./run-local stop} stops the nodes its settings name, so a stack of three nodes
     * needs {@code PROFILE_STORE_CASSANDRA_NODES=3} (without it, nodes 2 and 3 are left running).
     */
    String stopCommand(StackSettings settings) {
        return (Math.max(cassandraNodes, settings.cassandraNodes()) > 1 ? "PROFILE_STORE_CASSANDRA_NODES=3 " : "")
                + "PROFILE_STORE_STACK_DIR=" + settings.dir() + " ./run-local stop";
    }

    private String postgresSettings() {
        return postgres.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
    }

    /** The report's paragraph on the stack: what each backend ran as. */
    String markdown() {
        return String.format("Stack: Cassandra %s (the service's contact points %s), keyspace replication %s, every"
                + " read and write at %s (the service's, and the raw baselines' on the same cluster); PostgreSQL %s"
                + " (%s).%n", cassandraNodes == 1 ? "1 node" : cassandraNodes + " nodes", String.join(", ", contactPoints),
                replication, consistency,
                postgresDurable() ? "durable, every commit waits for the disk"
                        : "**not durable**, no commit waits for the disk (`--postgres-fast`)", postgresSettings());
    }
}
