package io.profilestore.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reads the change stream from its first event, as another system would (AMQP 0.9.1, {@code x-stream-offset}), for
 * {@link StreamCheck}: every event in the order the stream holds them.
 */
final class StreamReader implements AutoCloseable {

    private final Connection connection;
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();

    StreamReader(String rabbitmqUri, String queue) throws Exception {
        var factory = new ConnectionFactory();
        factory.setUri(rabbitmqUri);
        this.connection = factory.newConnection("fault-suite-stream-reader");
        Channel channel = connection.createChannel();
        channel.basicQos(1000);
        channel.basicConsume(queue, false, Map.of("x-stream-offset", "first"), new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                    throws IOException {
                events.add(Workload.JSON.readTree(body));
                channel.basicAck(envelope.getDeliveryTag(), false);
            }
        });
    }

    /** The events read so far, in the stream's order. */
    List<JsonNode> events() {
        return List.copyOf(events);
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
