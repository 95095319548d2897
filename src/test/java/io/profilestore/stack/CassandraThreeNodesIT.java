package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.profilestore.health.CassandraHealthCheck;
import io.profilestore.testing.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The three-node cluster the failure tests use (127.0.0.1-3, RF 3): QUORUM goes on with one node down and is
 * refused with two down. Its own folder and ports, beside the shared stack.
 */
@EnabledIf("io.profilestore.stack.LocalStackLifecycleIT#localMode")
class CassandraThreeNodesIT {

    static Path dir;
    static LocalStack cluster;
    static CqlSession session;

    @BeforeAll
    static void startCluster() throws IOException {
        dir = Files.createTempDirectory(Path.of("/var/tmp"), "profile-store-3-nodes-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        var shared = StackSettings.fromEnvironment();
        // ports of its own, free now: another stack on this machine (a developer's, CI's) may use any fixed ones
        int cqlPort = FreePorts.next();
        int storagePort = FreePorts.next();
        var settings = StackSettings.from(Map.of(
                "PROFILE_STORE_STACK_DIR", dir.toString(),
                "PROFILE_STORE_STACK_DIST_DIR", shared.distDir().toString(),
                "PROFILE_STORE_CASSANDRA_NODES", "3",
                "PROFILE_STORE_CASSANDRA_PORT", Integer.toString(cqlPort),
                "PROFILE_STORE_CASSANDRA_STORAGE_PORT", Integer.toString(storagePort),
                "PROFILE_STORE_CASSANDRA_HEAP", "256m",
                "profileStore.projectDir", shared.projectDir().toString()));
        cluster = LocalStack.start(settings, EnumSet.of(LocalStack.Service.CASSANDRA));
        session = CqlSession.builder()
                .addContactPoints(cluster.endpoints().cassandraContactPoints().stream()
                        .map(p -> new InetSocketAddress(p.substring(0, p.indexOf(':')), cqlPort)).toList())
                .withLocalDatacenter("datacenter1")
                .build();
    }


    @AfterAll
    static void stopCluster() {
        if (session != null) {
            session.close();
        }
        if (cluster != null) {
            assertThat(cluster.leave()).isTrue();
        }
        Processes.run(Duration.ofMinutes(1), "rm", "-rf", dir.toString());
    }

    @Test
    void quorumSurvivesOneNodeDownAndRefusesWithTwoDown() {
        // the driver learns of a node that joined last from the cluster's events, a moment after the session opens
        // (CI once saw two): wait for its view, bounded, before taking nodes down
        Awaitility.await("the driver to see three nodes up").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(session.getMetadata().getNodes().values())
                        .hasSize(3)
                        .allMatch(node -> node.getState() == NodeState.UP));
        // schema changes wait for all three nodes to agree: far longer than a write on a busy machine
        session.execute(SimpleStatement.newInstance(
                "CREATE KEYSPACE three WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}")
                .setTimeout(Duration.ofSeconds(30)));
        session.execute(SimpleStatement.newInstance("CREATE TABLE three.t (id uuid PRIMARY KEY, v int)")
                .setTimeout(Duration.ofSeconds(30)));
        var first = UUID.randomUUID();
        write(first, 1);

        var health = new CassandraHealthCheck(session, "three");
        assertThat(health.execute().isHealthy()).as(health.execute().getMessage()).isTrue();

        cluster.cassandra().stopNode(3);
        var second = UUID.randomUUID();
        write(second, 2);
        assertThat(read(first)).isEqualTo(1);
        assertThat(read(second)).isEqualTo(2);
        awaitNodesUp(2);
        assertThat(health.execute().isHealthy()).as("one node down: %s", health.execute().getMessage()).isTrue();

        cluster.cassandra().stopNode(2);
        assertThatThrownBy(() -> write(UUID.randomUUID(), 3))
                .isInstanceOfAny(UnavailableException.class, AllNodesFailedException.class);
        awaitNodesUp(1);
        var result = health.execute();
        assertThat(result.isHealthy()).as("two nodes down: no write can succeed at QUORUM").isFalse();
        assertThat(result.getMessage()).isEqualTo("QUORUM cannot be met for keyspace three: 1 of 3 replicas up, 2 needed")
                .doesNotContain("127.0.0");
        assertThat(health.readiness().execute().isHealthy()).as("readiness: this pod still reaches Cassandra").isTrue();
    }

    /** The driver's view of the cluster, which learns of a stopped node a moment after it stopped. */
    private static void awaitNodesUp(int up) {
        Awaitility.await("the driver to see " + up + " nodes up").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> session.getMetadata().getNodes().values().stream()
                        .filter(node -> node.getState() == NodeState.UP).count() == up);
    }

    private static void write(UUID id, int value) {
        session.execute(SimpleStatement.newInstance("INSERT INTO three.t (id, v) VALUES (?, ?)", id, value)
                .setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
    }

    private static int read(UUID id) {
        return session.execute(SimpleStatement.newInstance("SELECT v FROM three.t WHERE id = ?", id)
                .setConsistencyLevel(DefaultConsistencyLevel.QUORUM)).one().getInt("v");
    }
}
