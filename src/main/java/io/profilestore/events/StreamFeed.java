package io.profilestore.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.UUID;

/**
 * Tells the change stream's publisher of profiles written outside the write path (the import's, whose rows carry no
 * outbox record): a message on its own queue ({@link EventTopology#STREAM_FEED}) for each, naming version 1 and no
 * writer's lease. The publisher reads what the profile's history holds above its mark and publishes that, in version
 * order with whatever the service changed since; a profile told twice publishes nothing twice. The indexer is not told:
 * the import builds its index with a reindex.
 */
public final class StreamFeed {

    private static final long CONFIRMS_WITHIN_MS = 30_000;

    private final Connection rabbitmq;
    private final ObjectMapper json;

    public StreamFeed(Connection rabbitmq, ObjectMapper json) {
        this.rabbitmq = rabbitmq;
        this.json = json;
    }

    /** Returns once RabbitMQ confirmed every message: a profile told is one the publisher will read. */
    public void tell(Collection<UUID> pids) throws Exception {
        if (pids.isEmpty()) {
            return;
        }
        try (var channel = rabbitmq.createChannel()) {
            // declared here too: a message sent to a queue not there yet would be dropped without a word
            EventTopology.declare(channel);
            channel.confirmSelect();
            var properties = new AMQP.BasicProperties.Builder().contentType("application/json").deliveryMode(2).build();
            var now = Instant.now();
            for (var pid : pids) {
                var event = new ChangeEvent("profile", pid, 1, null, now);
                channel.basicPublish("", EventTopology.STREAM_FEED, properties, json.writeValueAsBytes(event));
            }
            channel.waitForConfirmsOrDie(CONFIRMS_WITHIN_MS);
        }
    }
}
