package io.profilestore.events;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * The change stream's queue (docs/change-stream.md): a RabbitMQ stream, replayable from any offset or time, kept by
 * age and size. Made when it is not there, with the configured retention; one that is there is left as it is (a
 * queue's arguments cannot change; a policy changes its retention), so that {@code migrate}, the publisher and the
 * local stack can all call this.
 */
public final class ChangeStreamTopology {

    /** A stream's segment: retention drops whole segments, so smaller ones keep the size closer to its limit. */
    static final long SEGMENT_BYTES = 100_000_000L;

    private ChangeStreamTopology() {
    }

    public static void declare(Connection rabbitmq, String queue, String maxAge, long maxBytes) throws IOException {
        try (var probe = rabbitmq.createChannel()) {
            probe.queueDeclarePassive(queue);
            return;
        } catch (IOException e) {
            if (!notFound(e)) {
                throw e;
            }
        } catch (Exception e) {
            // closing the channel the failed probe closed already
        }
        try (var channel = rabbitmq.createChannel()) {
            channel.queueDeclare(queue, true, false, false, Map.of(
                    "x-queue-type", "stream",
                    "x-max-age", maxAge,
                    "x-max-length-bytes", maxBytes,
                    "x-stream-max-segment-size-bytes", SEGMENT_BYTES));
        } catch (TimeoutException e) {
            throw new IOException("RabbitMQ did not close the channel", e);
        }
    }

    private static boolean notFound(IOException e) {
        return e.getCause() instanceof ShutdownSignalException signal
                && signal.getReason() instanceof AMQP.Channel.Close close && close.getReplyCode() == 404;
    }
}
