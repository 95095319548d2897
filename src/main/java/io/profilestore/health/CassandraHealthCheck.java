package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;

/** Healthy when a coordinator answers a query and at least one node is up; reports how many are. */
public class CassandraHealthCheck extends HealthCheck {

    private static final SimpleStatement PROBE =
            SimpleStatement.newInstance("SELECT release_version FROM system.local").setIdempotent(true);

    private final CqlSession session;

    public CassandraHealthCheck(CqlSession session) {
        this.session = session;
    }

    @Override
    protected Result check() {
        var row = session.execute(PROBE).one();
        var nodes = session.getMetadata().getNodes().values();
        long up = nodes.stream().filter(n -> n.getState() == NodeState.UP).count();
        String version = row == null ? "unknown" : row.getString("release_version");
        return Result.builder().healthy()
                .withMessage("Cassandra %s, %d of %d nodes up", version, up, nodes.size())
                .build();
    }
}
