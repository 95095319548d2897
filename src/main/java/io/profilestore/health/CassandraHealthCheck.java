package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import java.util.Collection;
import java.util.Set;

/**
 * Healthy when a coordinator answers a query and QUORUM can be met for every token range of the keyspace: a
 * majority of each range's replicas up, as the driver sees the nodes. With RF 3 and two nodes down no write can
 * succeed, whatever node answers. The message names no host. {@link #readiness()} asks less: that this instance
 * reaches Cassandra at all (docs/operations/deployment.md, "The chart": why readiness does not follow QUORUM).
 */
public class CassandraHealthCheck extends HealthCheck {

    private static final SimpleStatement PROBE =
            SimpleStatement.newInstance("SELECT release_version FROM system.local").setIdempotent(true);

    /** The fewest replicas up of any token range of the keyspace, out of how many, and how many QUORUM needs. */
    public record Quorum(int weakestUp, int replicas, int needed) {
        public boolean met() {
            return weakestUp >= needed;
        }
    }

    private final CqlSession session;
    private final CqlIdentifier keyspace;

    public CassandraHealthCheck(CqlSession session, String keyspace) {
        this.session = session;
        this.keyspace = CqlIdentifier.fromCql(keyspace);
    }

    @Override
    protected Result check() {
        String version = probe();
        var nodes = session.getMetadata().getNodes().values();
        long up = nodes.stream().filter(CassandraHealthCheck::up).count();
        var quorum = quorum();
        if (quorum != null && !quorum.met()) {
            return Result.unhealthy("QUORUM cannot be met for keyspace %s: %d of %d replicas up, %d needed",
                    keyspace.asInternal(), quorum.weakestUp(), quorum.replicas(), quorum.needed());
        }
        return Result.builder().healthy()
                .withMessage("Cassandra %s, %d of %d nodes up%s", version, up, nodes.size(), quorum == null ? ""
                        : ", QUORUM met for keyspace " + keyspace.asInternal())
                .build();
    }

    /**
     * QUORUM for the keyspace's weakest token range, or null while the driver knows no replicas of it (no token map
     * yet, or no such keyspace: before migrate).
     */
    public Quorum quorum() {
        var metadata = session.getMetadata();
        var tokens = metadata.getTokenMap().orElse(null);
        if (tokens == null || metadata.getKeyspace(keyspace).isEmpty()) {
            return null;
        }
        Quorum weakest = null;
        for (var range : tokens.getTokenRanges()) {
            Set<Node> replicas = tokens.getReplicas(keyspace, range);
            if (replicas.isEmpty()) {
                continue;
            }
            var quorum = new Quorum(count(replicas), replicas.size(), replicas.size() / 2 + 1);
            if (weakest == null || quorum.weakestUp() - quorum.needed() < weakest.weakestUp() - weakest.needed()) {
                weakest = quorum;
            }
        }
        return weakest;
    }

    /** This instance reaches Cassandra: a coordinator answers, whatever the other nodes do. */
    public HealthCheck readiness() {
        return new HealthCheck() {
            @Override
            protected Result check() {
                return Result.healthy("Cassandra %s answers", probe());
            }
        };
    }

    private String probe() {
        var row = session.execute(PROBE).one();
        return row == null ? "unknown" : row.getString("release_version");
    }

    private static int count(Collection<Node> nodes) {
        return (int) nodes.stream().filter(CassandraHealthCheck::up).count();
    }

    private static boolean up(Node node) {
        return node.getState() == NodeState.UP;
    }
}
