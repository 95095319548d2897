package io.profilestore.bench;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.profilestore.config.ProfileStoreConfiguration;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The change stream's delay as another system sees it (docs/change-stream.md): from a PUT's answer to its event's
 * arrival at a consumer of the stream, at a fixed rate of PUTs. An event not read 30 s after its answer is a timeout,
 * counted in the "all requests" percentiles at 30 s.
 */
final class EventDelay {

    static final String SCENARIO = "change stream: a change answered to its event read";
    private static final Duration GIVE_UP = Duration.ofSeconds(30);

    private EventDelay() {
    }

    static Load.Result measure(ProfileStoreConfiguration config, BenchHttp http, Updatable updatable, double rate,
            Duration warmup, Duration duration) throws Exception {
        var answered = new ConcurrentHashMap<String, Long>();
        var read = new ConcurrentHashMap<String, Long>();
        try (var connection = config.rabbitmq.connect("bench-change-stream"); var channel = connection.createChannel()) {
            channel.basicQos(1000);
            channel.basicConsume(config.changeStream.queue, false, Map.of("x-stream-offset", "next"),
                    new DefaultConsumer(channel) {
                        @Override
                        public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties,
                                byte[] body) throws IOException {
                            read.putIfAbsent(properties.getMessageId(), System.nanoTime());
                            channel.basicAck(envelope.getDeliveryTag(), false);
                        }
                    });
            long measuredFrom = System.nanoTime() + warmup.toNanos();
            var load = Load.openLoop(SCENARIO, rate, warmup, duration, () -> updatable.write((pid, expected) ->
                    http.put("/v1/profiles/" + pid, "\"" + expected + "\"",
                            "{\"data\": {\"surname\": \"Потоковая\", \"n\": " + (expected + 1) + "}}")
                            .thenApply(response -> {
                                long now = System.nanoTime();
                                if (response.getCode() == 200 && now >= measuredFrom) {
                                    answered.put(pid + ":" + (expected + 1), now);
                                }
                                return response.getCode();
                            }), pid -> updatable.versions().getOrDefault(pid, 1L)));
            long deadline = System.nanoTime() + GIVE_UP.toNanos();
            while (!read.keySet().containsAll(answered.keySet()) && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
            var delays = Load.histogram();
            var all = Load.histogram();
            long timeouts = 0;
            for (var change : answered.entrySet()) {
                Long arrived = read.get(change.getKey());
                long took = arrived == null ? GIVE_UP.toNanos() : Math.max(0, arrived - change.getValue());
                all.recordValue(took / 1000);
                if (arrived == null) {
                    timeouts++;
                } else {
                    delays.recordValue(took / 1000);
                }
            }
            return new Load.Result(SCENARIO, rate, load.throughput(), delays, all, load.errors(), timeouts,
                    new TreeMap<>(), load.firstError(), load.window());
        }
    }
}
