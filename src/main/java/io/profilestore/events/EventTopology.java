package io.profilestore.events;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.Map;

/**
 * The RabbitMQ side of change events: a durable topic exchange, the indexer's quorum queue, the change stream
 * publisher's ({@link #STREAM_FEED}), and a dead-letter
 * queue where a message goes after {@link #DELIVERY_LIMIT} failed deliveries or when the indexer rejects it as
 * poison. Declaring is idempotent: {@code migrate}, the relay and the indexer all do it.
 */
public final class EventTopology {

    public static final String EXCHANGE = "profile.events";
    public static final String ROUTING_KEY = "profile.changed";
    public static final String QUEUE = "profile.indexer";
    public static final String DEAD_EXCHANGE = "profile.events.dead";
    public static final String DEAD_QUEUE = "profile.indexer.dead";
    /**
     * The change stream's publisher's feed (docs/change-stream.md): every change message, as the indexer's; one
     * consumer at a time takes it ({@code x-single-active-consumer}), so that one publisher decides the stream's order.
     */
    public static final String STREAM_FEED = "profile.changestream";
    /** Deliveries of one message before it is dead-lettered: a crashing indexer, not an outage, uses them up. */
    public static final int DELIVERY_LIMIT = 20;

    private EventTopology() {
    }

    public static void declare(Channel channel) throws IOException {
        channel.exchangeDeclare(EXCHANGE, BuiltinExchangeType.TOPIC, true);
        channel.exchangeDeclare(DEAD_EXCHANGE, BuiltinExchangeType.FANOUT, true);
        channel.queueDeclare(DEAD_QUEUE, true, false, false, Map.of("x-queue-type", "quorum"));
        channel.queueBind(DEAD_QUEUE, DEAD_EXCHANGE, "");
        channel.queueDeclare(QUEUE, true, false, false, Map.of(
                "x-queue-type", "quorum",
                "x-delivery-limit", DELIVERY_LIMIT,
                "x-dead-letter-exchange", DEAD_EXCHANGE));
        channel.queueBind(QUEUE, EXCHANGE, "profile.#");
        channel.queueDeclare(STREAM_FEED, true, false, false, Map.of(
                "x-queue-type", "quorum",
                "x-single-active-consumer", true,
                "x-delivery-limit", DELIVERY_LIMIT,
                "x-dead-letter-exchange", DEAD_EXCHANGE));
        channel.queueBind(STREAM_FEED, EXCHANGE, "profile.#");
    }
}
