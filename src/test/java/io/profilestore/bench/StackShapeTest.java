package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.stack.StackSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A run refuses a stack of another shape than it asks for, and its report says what it ran on. */
class StackShapeTest {

    private static final Map<String, String> DURABLE =
            Map.of("fsync", "on", "synchronous_commit", "on", "full_page_writes", "on");
    private static final Map<String, String> FAST =
            Map.of("fsync", "off", "synchronous_commit", "on", "full_page_writes", "off");

    private static StackShape shape(int nodes, int factor, Map<String, String> postgres) {
        return shape(nodes, nodes, factor, postgres);
    }

    private static StackShape shape(int nodes, int contactPoints, int factor, Map<String, String> postgres) {
        return new StackShape(nodes, contactPoints(contactPoints), Map.of("class",
                "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", String.valueOf(factor)), "QUORUM",
                postgres);
    }

    private static List<String> contactPoints(int nodes) {
        return IntStream.rangeClosed(1, nodes).mapToObj(i -> "127.0.0." + i + ":64042").toList();
    }

    private static BenchOptions options(String... args) {
        return BenchOptions.parse(args);
    }

    @Test
    void postgresIsDurableOnlyWhenEverySettingIsOn() {
        assertThat(shape(1, 1, DURABLE).postgresDurable()).isTrue();
        assertThat(shape(1, 1, FAST).postgresDurable()).isFalse();
        assertThat(shape(1, 1, Map.of("fsync", "on", "synchronous_commit", "off", "full_page_writes", "on"))
                .postgresDurable()).as("commits that do not wait").isFalse();
    }

    @Test
    void aRunThatAsksForAnotherPostgresStopsAndSaysWhy() {
        shape(1, 1, DURABLE).check(options("--quick"));
        shape(1, 1, FAST).check(options("--quick", "--postgres-fast"));

        assertThatThrownBy(() -> shape(1, 1, FAST).check(options("--quick")))
                .hasMessageContaining("asks for PostgreSQL durable").hasMessageContaining("fsync=off")
                .hasMessageContaining("./run-local stop");
        assertThatThrownBy(() -> shape(1, 1, DURABLE).check(options("--quick", "--postgres-fast")))
                .hasMessageContaining("without fsync");
    }

    @Test
    void aRunOfThreeNodesNeedsThreeUpAndAKeyspaceAtReplicationFactorThree() {
        shape(3, 3, DURABLE).check(options("--cluster", "3"));

        assertThatThrownBy(() -> shape(1, 1, DURABLE).check(options("--cluster", "3")))
                .hasMessageContaining("asks for 3 Cassandra nodes, but the stack has 1");
        assertThatThrownBy(() -> shape(3, 1, 3, DURABLE).check(options("--cluster", "3")))
                .as("a service that knows one node of three").hasMessageContaining("configured with [127.0.0.1:64042]");
        assertThatThrownBy(() -> shape(3, 1, DURABLE).check(options("--cluster", "3")))
                .hasMessageContaining("replication factor 3").hasMessageContaining("keeps the replication");
        assertThatThrownBy(() -> shape(3, 3, DURABLE).check(options())).as("one node, the default")
                .hasMessageContaining("asks for 1 Cassandra nodes");
        assertThatThrownBy(() -> options("--cluster", "2")).hasMessageContaining("1 or 3");
    }

    @Test
    void theReplicationFactorOfEitherStrategy() {
        assertThat(shape(3, 3, DURABLE).replicationFactor()).isEqualTo(3);
        assertThat(new StackShape(3, contactPoints(3), Map.of("class", "org.apache.cassandra.locator.NetworkTopologyStrategy",
                "datacenter1", "3"), "QUORUM", DURABLE).replicationFactor()).isEqualTo(3);
    }

    @Test
    void aStackOfThreeNodesIsStoppedWithItsNodesNamed() {
        var oneNode = StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", "/var/tmp/bench"));
        var threeNodes = StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", "/var/tmp/bench-cluster3",
                "PROFILE_STORE_CASSANDRA_NODES", "3"));

        assertThat(shape(1, 1, DURABLE).stopCommand(oneNode))
                .isEqualTo("PROFILE_STORE_STACK_DIR=/var/tmp/bench ./run-local stop");
        assertThat(shape(3, 3, DURABLE).stopCommand(threeNodes))
                .isEqualTo("PROFILE_STORE_CASSANDRA_NODES=3 PROFILE_STORE_STACK_DIR=/var/tmp/bench-cluster3 ./run-local stop");
        assertThat(shape(3, 3, DURABLE).stopCommand(oneNode)).as("three nodes up, where the settings say one")
                .startsWith("PROFILE_STORE_CASSANDRA_NODES=3 ");
    }

    @Test
    void theReportSaysWhatRan() {
        assertThat(shape(3, 3, DURABLE).markdown()).contains("Cassandra 3 nodes")
                .contains("contact points 127.0.0.1:64042, 127.0.0.2:64042, 127.0.0.3:64042")
                .contains("replication_factor=3")
                .contains("at QUORUM").contains("PostgreSQL durable").contains("fsync=on");
        assertThat(shape(1, 1, FAST).markdown()).contains("Cassandra 1 node (").contains("**not durable**")
                .contains("fsync=off");
    }
}
