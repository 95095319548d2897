package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StackModeTest {

    @Test
    void autoPicksDockerOnlyWhenAnEngineAnswers() {
        assertThat(StackMode.resolve("auto", () -> true)).isEqualTo(StackMode.DOCKER);
        assertThat(StackMode.resolve("auto", () -> false)).isEqualTo(StackMode.LOCAL);
        assertThat(StackMode.resolve(null, () -> false)).isEqualTo(StackMode.LOCAL);
        assertThat(StackMode.resolve("", () -> true)).isEqualTo(StackMode.DOCKER);
    }

    @Test
    void anExplicitModeWinsAndDockerIsNotAsked() {
        var asked = new AtomicInteger();
        assertThat(StackMode.resolve("local", () -> asked.incrementAndGet() > 0)).isEqualTo(StackMode.LOCAL);
        assertThat(StackMode.resolve("DOCKER", () -> asked.incrementAndGet() > 0)).isEqualTo(StackMode.DOCKER);
        assertThat(StackMode.resolve(" external ", () -> asked.incrementAndGet() > 0)).isEqualTo(StackMode.EXTERNAL);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anUnknownModeIsRefusedWithTheChoices() {
        assertThatThrownBy(() -> StackMode.resolve("kubernetes", () -> false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auto, local, docker or external");
    }

    @Test
    void settingsHaveDefaultsThatStayOffCommonPorts() {
        var settings = StackSettings.from(Map.of());
        assertThat(settings.cassandraPort()).isEqualTo(19042);
        assertThat(settings.elasticsearchPort()).isEqualTo(19200);
        assertThat(settings.postgresPort()).isEqualTo(15432);
        assertThat(settings.rabbitmqPort()).isEqualTo(15673);
        assertThat(settings.cassandraNodes()).isEqualTo(1);
        assertThat(settings.distDir()).isEqualTo(settings.dir().resolve("dist"));
        assertThat(settings.cassandraHosts()).containsExactly("127.0.0.1");
        assertThat(settings.postgresDurable()).as("the tests' PostgreSQL does not wait for the disk").isFalse();
    }

    @Test
    void postgresWaitsForTheDiskOnlyWhenAskedTo() {
        assertThat(StackSettings.from(Map.of("PROFILE_STORE_POSTGRES_DURABLE", "true")).postgresDurable()).isTrue();
        assertThatThrownBy(() -> StackSettings.from(Map.of("PROFILE_STORE_POSTGRES_DURABLE", "yes")))
                .hasMessageContaining("false or true");

        assertThat(PostgresServer.durability(true)).containsExactly(
                "-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on");
        assertThat(PostgresServer.durability(false)).as("synchronous_commit as it was: a synchronous standby's wait")
                .containsExactly("-c", "fsync=off", "-c", "full_page_writes=off");
    }

    @Test
    void settingsAreReadAndChecked() {
        var settings = StackSettings.from(Map.of("PROFILE_STORE_CASSANDRA_NODES", "3",
                "PROFILE_STORE_POSTGRES_PORT", "25432", "PROFILE_STORE_STACK_DIR", "/tmp/x"));
        assertThat(settings.cassandraHosts()).containsExactly("127.0.0.1", "127.0.0.2", "127.0.0.3");
        assertThat(settings.postgresPort()).isEqualTo(25432);
        assertThat(settings.dir()).hasToString("/tmp/x");

        assertThatThrownBy(() -> StackSettings.from(Map.of("PROFILE_STORE_CASSANDRA_NODES", "2")))
                .hasMessageContaining("1 or 3");
        assertThatThrownBy(() -> StackSettings.from(Map.of("PROFILE_STORE_POSTGRES_PORT", "80")))
                .hasMessageContaining("between 1024 and 65535");
        assertThatThrownBy(() -> StackSettings.from(Map.of("PROFILE_STORE_CASSANDRA_HEAP", "lots")))
                .hasMessageContaining("512m");
    }

    @Test
    void externalModeReadsTheServicesOwnVariables() {
        var endpoints = StackSettings.from(Map.of(
                "CASSANDRA_CONTACT_POINTS", "cass-1:9042, cass-2:9042",
                "CASSANDRA_LOCAL_DC", "dc1",
                "ELASTICSEARCH_URLS", "http://es:9200",
                "POSTGRES_URL", "jdbc:postgresql://pg:5432/ps",
                "RABBITMQ_URI", "amqp://u:p@mq:5672/%2F")).externalEndpoints();

        assertThat(endpoints.cassandraContactPoints()).containsExactly("cass-1:9042", "cass-2:9042");
        assertThat(endpoints.configOverrides())
                .containsEntry("cassandra.contactPoints", "cass-1:9042,cass-2:9042")
                .containsEntry("cassandra.localDatacenter", "dc1")
                .containsEntry("elasticsearch.hosts", "http://es:9200")
                .containsEntry("postgres.url", "jdbc:postgresql://pg:5432/ps")
                .containsEntry("rabbitmq.uri", "amqp://u:p@mq:5672/%2F");
        assertThat(new ExternalStack(endpoints).endpoints()).isEqualTo(endpoints);
    }
}
