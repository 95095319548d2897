package io.profilestore.backends;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.Refresh;
import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.MessageProperties;
import io.profilestore.testing.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each backing service is really reached through the clients the service builds from its configuration. */
class BackendsRoundTripIT {

    static Backends backends;

    @BeforeAll
    static void open() {
        backends = Backends.open(TestStack.configuration().backends(), new MetricRegistry(), "round-trip-test");
    }

    @AfterAll
    static void close() {
        backends.close();
    }

    @Test
    void cassandraWritesAndReadsAtQuorum() {
        var session = backends.cassandra();
        assertThat(session.getContext().getConfig().getDefaultProfile()
                .getString(DefaultDriverOption.REQUEST_CONSISTENCY)).isEqualTo(ConsistencyLevel.QUORUM.name());
        TestStack.changeSchema(session, "CREATE KEYSPACE IF NOT EXISTS stack_probe WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
        TestStack.changeSchema(session,
                "CREATE TABLE IF NOT EXISTS stack_probe.round_trip (id uuid PRIMARY KEY, body text)");
        var id = UUID.randomUUID();

        var write = session.execute(SimpleStatement.newInstance(
                "INSERT INTO stack_probe.round_trip (id, body) VALUES (?, ?)", id, "hello").setIdempotent(true));
        var row = session.execute(SimpleStatement.newInstance(
                "SELECT body FROM stack_probe.round_trip WHERE id = ?", id)).one();

        assertThat(write.getExecutionInfo().getErrors()).isEmpty();
        assertThat(row).isNotNull();
        assertThat(row.getString("body")).isEqualTo("hello");
    }

    @Test
    void elasticsearchIndexesAndSearches() throws Exception {
        var client = backends.elasticsearch();
        String index = "stack-probe-" + UUID.randomUUID();
        try {
            client.indices().create(c -> c.index(index));
            client.index(i -> i.index(index).id("1").document(Map.of("surname", "Ivanov"))
                    .refresh(Refresh.WaitFor));

            var found = client.search(s -> s.index(index).query(q -> q.match(m -> m.field("surname").query("ivanov"))),
                    Map.class);

            assertThat(found.hits().hits()).hasSize(1);
            assertThat(found.hits().hits().get(0).id()).isEqualTo("1");
        } finally {
            client.indices().delete(d -> d.index(index).ignoreUnavailable(true));
        }
    }

    @Test
    void postgresAnswersQueries() throws Exception {
        try (var connection = backends.postgres().getConnection();
                var statement = connection.createStatement()) {
            statement.execute("CREATE TEMPORARY TABLE probe (n int)");
            statement.execute("INSERT INTO probe VALUES (41), (1)");
            try (var rs = statement.executeQuery("SELECT sum(n) FROM probe")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(42);
            }
        }
    }

    @Test
    void rabbitmqConfirmsAPublishThatIsConsumed() throws Exception {
        try (var channel = backends.rabbitmq().createChannel()) {
            String queue = channel.queueDeclare("", false, true, true, null).getQueue();
            channel.confirmSelect();
            byte[] body = ("probe " + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);

            channel.basicPublish("", queue, true, MessageProperties.PERSISTENT_BASIC, body);
            channel.waitForConfirmsOrDie(Duration.ofSeconds(10).toMillis());
            var received = channel.basicGet(queue, false);

            assertThat(received).isNotNull();
            assertThat(received.getBody()).isEqualTo(body);
            assertThat(received.getProps().getDeliveryMode()).isEqualTo(
                    new AMQP.BasicProperties.Builder().deliveryMode(2).build().getDeliveryMode());
            channel.basicAck(received.getEnvelope().getDeliveryTag(), false);
        }
    }
}
