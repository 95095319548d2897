package io.profilestore.stack;


import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.testcontainers.cassandra.CassandraContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.rabbitmq.RabbitMQContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The four services as containers, for machines with a Docker engine. Testcontainers picks free host ports, so
 * runs never clash, and its reaper removes the containers of a run that was killed. One Cassandra node only:
 * the three-node cluster of the failure tests runs in the local mode.
 */
final class ContainerStack implements Stack {

    static final String CASSANDRA_IMAGE = "cassandra:" + Binaries.CASSANDRA_VERSION;
    static final String ELASTICSEARCH_IMAGE = "docker.elastic.co/elasticsearch/elasticsearch:" + Binaries.ELASTICSEARCH_VERSION;
    static final String POSTGRES_IMAGE = "postgres:15-alpine";
    static final String RABBITMQ_IMAGE = "rabbitmq:3.13-alpine";
    private static final String SUPERUSER = "postgres";

    private final CassandraContainer cassandra;
    private final GenericContainer<?> elasticsearch;
    private final PostgreSQLContainer postgres;
    private final RabbitMQContainer rabbitmq;

    private ContainerStack(StackSettings settings) {
        if (settings.cassandraNodes() != 1) {
            throw new IllegalArgumentException("PROFILE_STORE_CASSANDRA_NODES=" + settings.cassandraNodes()
                    + " needs PROFILE_STORE_STACK=local: the docker mode runs one Cassandra node");
        }
        cassandra = new CassandraContainer(DockerImageName.parse(CASSANDRA_IMAGE))
                .withEnv("MAX_HEAP_SIZE", settings.cassandraHeap().toUpperCase())
                .withEnv("HEAP_NEWSIZE", "128M")
                // as in the local mode's cassandra.yaml: batch updates and merges are logged batches of several MiB
                .withEnv("JVM_EXTRA_OPTS", "-Dcassandra.settings.batch_size_warn_threshold=1MiB"
                        + " -Dcassandra.settings.batch_size_fail_threshold=16MiB"
                        + " -Dcassandra.settings.commitlog_segment_size=64MiB");
        elasticsearch = new GenericContainer<>(DockerImageName.parse(ELASTICSEARCH_IMAGE))
                .withEnv("discovery.type", "single-node")
                .withEnv("xpack.security.enabled", "false")
                .withEnv("cluster.routing.allocation.disk.threshold_enabled", "false")
                .withEnv("ES_JAVA_OPTS", "-Xms" + settings.elasticsearchHeap() + " -Xmx" + settings.elasticsearchHeap())
                .withExposedPorts(9200)
                .waitingFor(Wait.forHttp("/_cluster/health?wait_for_status=yellow&timeout=1s")
                        .forPort(9200).forStatusCode(200).withStartupTimeout(settings.startTimeout()));
        // the image's superuser sets up the two roles of the local mode (giveTheDatabaseItsRoles)
        postgres = new PostgreSQLContainer(DockerImageName.parse(POSTGRES_IMAGE))
                .withDatabaseName(PostgresServer.DATABASE)
                .withUsername(SUPERUSER)
                .withPassword(SUPERUSER);
        rabbitmq = new RabbitMQContainer(DockerImageName.parse(RABBITMQ_IMAGE));
        Stream.of(cassandra, postgres, rabbitmq).forEach(c -> c.withStartupTimeout(settings.startTimeout()));
    }

    static ContainerStack start(StackSettings settings) {
        var stack = new ContainerStack(settings);
        try {
            Startables.deepStart(stack.containers()).join();
            stack.giveTheDatabaseItsRoles();
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
        return stack;
    }

    /**
     * As in the local mode: the service's role, no superuser, and an owner of its own for migrate, which refuses a
     * trail the service's role owns (and a superuser, member of every role, would).
     */
    private void giveTheDatabaseItsRoles() {
        try (var connection = DriverManager.getConnection(postgres.getJdbcUrl(), SUPERUSER, SUPERUSER);
                var statement = connection.createStatement()) {
            statement.execute("CREATE ROLE " + PostgresServer.USER + " LOGIN PASSWORD '" + PostgresServer.PASSWORD + "'");
            statement.execute("CREATE ROLE " + PostgresServer.OWNER + " LOGIN PASSWORD '"
                    + PostgresServer.OWNER_PASSWORD + "'");
            statement.execute("ALTER DATABASE " + PostgresServer.DATABASE + " OWNER TO " + PostgresServer.OWNER);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot make the PostgreSQL container's roles", e);
        }
    }

    private List<GenericContainer<?>> containers() {
        return List.of(cassandra, elasticsearch, postgres, rabbitmq);
    }

    @Override
    public StackMode mode() {
        return StackMode.DOCKER;
    }

    @Override
    public Endpoints endpoints() {
        var cql = cassandra.getContactPoint();
        return new Endpoints(
                List.of(cql.getHostString() + ":" + cql.getPort()),
                cassandra.getLocalDatacenter(),
                "http://" + elasticsearch.getHost() + ":" + elasticsearch.getMappedPort(9200),
                postgres.getJdbcUrl(),
                PostgresServer.USER,
                PostgresServer.PASSWORD,
                PostgresServer.OWNER,
                PostgresServer.OWNER_PASSWORD,
                "amqp://" + rabbitmq.getAdminUsername() + ":" + rabbitmq.getAdminPassword() + "@"
                        + rabbitmq.getHost() + ":" + rabbitmq.getAmqpPort() + "/%2F");
    }

    @Override
    public void pause(LocalStack.Service service) {
        var container = container(service);
        container.getDockerClient().pauseContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public void resume(LocalStack.Service service) {
        var container = container(service);
        container.getDockerClient().unpauseContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public Outage outage(LocalStack.Service service) {
        pause(service);
        return () -> resume(service);
    }

    private GenericContainer<?> container(LocalStack.Service service) {
        return switch (service) {
            case CASSANDRA -> cassandra;
            case ELASTICSEARCH -> elasticsearch;
            case POSTGRES -> postgres;
            case RABBITMQ -> rabbitmq;
        };
    }

    @Override
    public String describe() {
        return "containers: " + CASSANDRA_IMAGE + ", " + ELASTICSEARCH_IMAGE + ", " + POSTGRES_IMAGE + ", " + RABBITMQ_IMAGE;
    }

    @Override
    public void close() {
        containers().parallelStream().forEach(GenericContainer::stop);
    }

}
