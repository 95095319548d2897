package io.profilestore.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import io.dropwizard.jackson.Jackson;
import io.profilestore.db.Outbox;
import io.profilestore.db.OutboxNotifications;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay learns of recorded changes from PostgreSQL's notifications, not from its polls: a committed record
 * is relayed at once with the poll thirty seconds away. Its listening session lost (terminated by the server),
 * the polls still relay, and the session comes back and is notified again.
 */
class OutboxRelayTest {

    private static final ObjectMapper JSON = Jackson.newObjectMapper();

    /** This test's relay's session in pg_stat_activity, apart from any other relay's. */
    private final String applicationName = "outbox-relay-test-" + UUID.randomUUID().toString().substring(0, 8);
    private final Set<UUID> relayed = ConcurrentHashMap.newKeySet();
    private final MetricRegistry metrics = new MetricRegistry();
    private Channel channel;
    private OutboxRelay relay;

    @BeforeEach
    void watchTheExchange() throws IOException {
        channel = TestStack.backends().rabbitmq().createChannel();
        EventTopology.declare(channel);
        String queue = channel.queueDeclare().getQueue(); // the test's own, gone with its channel
        channel.queueBind(queue, EventTopology.EXCHANGE, EventTopology.ROUTING_KEY);
        channel.basicConsume(queue, true, new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, com.rabbitmq.client.Envelope envelope,
                    com.rabbitmq.client.AMQP.BasicProperties properties, byte[] body) throws IOException {
                relayed.add(UUID.fromString(JSON.readTree(body).path("entityId").asText()));
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        if (relay != null) {
            relay.stop();
        }
        channel.close();
    }

    private OutboxRelay start(Duration pollInterval, Duration reconnectDelay) {
        var postgres = TestStack.configuration().getPostgres();
        relay = new OutboxRelay(new Outbox(TestStack.backends().postgres()),
                new OutboxNotifications(() -> postgres.connect(applicationName)), TestStack.backends().rabbitmq(), JSON,
                pollInterval, Duration.ofDays(1), reconnectDelay, metrics);
        relay.start();
        await("the relay to listen").atMost(Duration.ofSeconds(20)).until(relay::isListening);
        return relay;
    }

    /** Commits one change record, as a change does (the relay does not care what it says). */
    private static UUID record() throws SQLException {
        UUID pid = UUID.randomUUID();
        try (var connection = TestStack.backends().postgres().getConnection();
                var insert = connection.prepareStatement(
                        "INSERT INTO outbox (entity_type, entity_id, version, fence) VALUES ('profile', ?, 1, 1)")) {
            insert.setObject(1, pid);
            insert.executeUpdate();
        }
        return pid;
    }

    /** The backend pid of this test's listening session, or 0 when it has none. */
    private int session() throws SQLException {
        try (var connection = TestStack.backends().postgres().getConnection();
                var query = connection.prepareStatement(
                        "SELECT coalesce(max(pid), 0) FROM pg_stat_activity WHERE application_name = ?")) {
            query.setString(1, applicationName);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    private long notified() {
        return metrics.meter("events.relay.notified").getCount();
    }

    @Test
    void aCommittedRecordIsRelayedAtOnceNotAtTheNextPoll() throws Exception {
        start(Duration.ofSeconds(30), Duration.ofSeconds(1));
        UUID pid = record();

        await("the record relayed, its poll 30 s away").atMost(Duration.ofSeconds(5)).until(() -> relayed.contains(pid));
        assertThat(notified()).as("woken by a notification").isPositive();
    }

    @Test
    void withItsSessionTerminatedTheRelayPollsAndListensAgain() throws Exception {
        start(Duration.ofSeconds(1), Duration.ofSeconds(10));
        int listening = session();
        assertThat(listening).as("the relay's session in pg_stat_activity").isPositive();

        try (var connection = TestStack.backends().postgres().getConnection();
                var terminate = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
            terminate.setInt(1, listening);
            terminate.executeQuery();
        }
        await("the relay to notice").atMost(Duration.ofSeconds(15)).until(() -> !relay.isListening());

        // nobody listens now (the next session opens in 10 s): the poll relays
        UUID whileDeaf = record();
        await("the record relayed by a poll").atMost(Duration.ofSeconds(8)).until(() -> relayed.contains(whileDeaf));
        assertThat(relay.isListening()).as("relayed before the session was back").isFalse();

        await("a new session").atMost(Duration.ofSeconds(30)).until(relay::isListening);
        assertThat(session()).isPositive().isNotEqualTo(listening);
        long before = notified();
        UUID afterwards = record();
        await("the new session notified").atMost(Duration.ofSeconds(5)).until(() -> notified() > before);
        await("and the record relayed").atMost(Duration.ofSeconds(5)).until(() -> relayed.contains(afterwards));
    }
}
