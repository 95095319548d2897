package io.profilestore.indexer;

import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.SlidingTimeWindowArrayReservoir;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.events.ChangeEvent;
import io.profilestore.events.EventTopology;
import io.profilestore.support.DaemonScheduler;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the index equal to Cassandra. Takes change events from {@code profile.indexer} in batches, reads each
 * changed profile as Cassandra holds it now (QUORUM), and writes it (or its removal) to every index that takes
 * writes, with the row's write time as external version. Duplicated, reordered and stale messages are therefore
 * harmless. A change whose write has not landed yet is held (unacknowledged) until it has, or its writer's lease
 * has run out ({@link IndexDecision}). A message is acknowledged only after its bulk succeeded; while Cassandra or
 * Elasticsearch is away the batch is retried and nothing is acknowledged; a message that can never be indexed (a
 * profile whose stored data is unreadable, a document the mapping refuses) goes to the dead-letter queue alone.
 */
public class Indexer implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    private record Delivery(long tag, byte[] body) {
    }

    /** How soon a change whose write is awaited is looked at again. */
    private static final Duration RECHECK = Duration.ofMillis(200);

    private final Connection rabbitmq;
    private final BatchWriter writer;
    private final ObjectMapper json;
    private final IndexerSettings settings;
    private final LinkedBlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Meter indexed;
    private final Meter poison;
    private final Histogram lag;
    private final AtomicLong queueDepth = new AtomicLong(-1);
    private final AtomicLong deadLetters = new AtomicLong(-1);
    private final AtomicReference<Instant> failingSince = new AtomicReference<>();
    private final AtomicReference<String> lastFailure = new AtomicReference<>("");
    /** Changes whose Cassandra write is awaited (see {@link IndexDecision}); the worker thread's alone. */
    private final Map<UUID, Pending> waiting = new LinkedHashMap<>();
    private final AtomicLong waitingCount = new AtomicLong();
    /** The pause before an unexpectedly failed batch goes back to the queue; the worker thread's alone. */
    private long unexpectedBackoff = 500;
    private volatile Channel channel;
    private Thread worker;
    private ScheduledExecutorService gauges;

    public Indexer(Connection rabbitmq, ProfileDocuments documents, SearchIndex index, ObjectMapper json,
            IndexerSettings settings, MetricRegistry metrics) {
        this.rabbitmq = rabbitmq;
        this.writer = new BatchWriter(documents, index, settings.leaseClockTolerance.toJavaDuration(),
                metrics.timer("indexer.bulk"));
        this.json = json;
        this.settings = settings;
        this.indexed = metrics.meter("indexer.indexed");
        this.poison = metrics.meter("indexer.dead-lettered");
        this.lag = metrics.register("indexer.lag-ms", new Histogram(new SlidingTimeWindowArrayReservoir(5, TimeUnit.MINUTES)));
        metrics.register("indexer.queue-depth", (Gauge<Long>) queueDepth::get);
        metrics.register("indexer.dead-letter-queue-depth", (Gauge<Long>) deadLetters::get);
        metrics.register("indexer.waiting", (Gauge<Long>) waitingCount::get);
    }

    @Override
    public void start() throws Exception {
        var consuming = rabbitmq.createChannel();
        EventTopology.declare(consuming);
        consuming.basicQos(settings.prefetch);
        consuming.basicConsume(EventTopology.QUEUE, false, "indexer-" + UUID.randomUUID(), new DefaultConsumer(consuming) {
            @Override
            public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                inbox.add(new Delivery(envelope.getDeliveryTag(), body));
            }
        });
        channel = consuming;
        worker = new Thread(this::work, "indexer");
        worker.setDaemon(true);
        worker.start();
        gauges = DaemonScheduler.named("indexer-gauges");
        gauges.scheduleWithFixedDelay(this::measureQueues, 0, 5, TimeUnit.SECONDS);
    }

    @Override
    public void stop() throws Exception {
        stopped.countDown();
        gauges.shutdownNow();
        worker.join(TimeUnit.SECONDS.toMillis(30));
        var current = channel;
        if (current != null && current.isOpen()) {
            current.close(); // what is not acknowledged goes back to the queue
        }
    }

    /** Healthy unless batches have been failing for a while; says why. */
    public String failure(Duration tolerated) {
        var since = failingSince.get();
        return since != null && Duration.between(since, Instant.now()).compareTo(tolerated) > 0
                ? "indexing has failed since " + since + ": " + lastFailure.get() : null;
    }

    public long queueDepth() {
        return queueDepth.get();
    }

    /**
     * The events of one profile taken from the queue and not acknowledged yet: their deliveries, and the newest of
     * them by fence (a removal must carry the fence of the erase, above all others).
     */
    private static final class Pending {
        final List<Delivery> deliveries = new ArrayList<>();
        ChangeEvent newest;
        long recheckAt;

        void add(Delivery delivery, ChangeEvent event) {
            deliveries.add(delivery);
            if (newest == null || fence(event) >= fence(newest)) {
                newest = event;
            }
        }

        void addAll(Pending other) {
            other.deliveries.forEach(d -> deliveries.add(d));
            if (newest == null || fence(other.newest) >= fence(newest)) {
                newest = other.newest;
            }
        }
    }

    private void work() {
        while (stopped.getCount() > 0) {
            Map<UUID, Pending> batch = new LinkedHashMap<>();
            try {
                var first = inbox.poll(pollWait(), TimeUnit.NANOSECONDS);
                if (first != null) {
                    var deliveries = new ArrayList<Delivery>(List.of(first));
                    long lingerUntil = System.nanoTime() + settings.linger.toNanoseconds();
                    while (deliveries.size() < settings.batchSize) {
                        var next = inbox.poll(Math.max(0, lingerUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
                        if (next == null) {
                            break;
                        }
                        deliveries.add(next);
                        inbox.drainTo(deliveries, settings.batchSize - deliveries.size());
                    }
                    batch = parse(deliveries);
                }
                takeDueWaiting(batch);
                if (!batch.isEmpty()) {
                    process(batch);
                    unexpectedBackoff = 500;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // a bug or a client failure nobody foresaw: the messages go back to the queue (each redelivery
                // counts towards the dead-letter limit), after a pause that grows while it lasts, so that a failure
                // that persists does not use up their deliveries in moments; the health check says indexing fails
                LOG.error("indexer batch failed unexpectedly; its messages return to the queue", e);
                failing(e);
                try {
                    stopped.await(unexpectedBackoff, TimeUnit.MILLISECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                unexpectedBackoff = Math.min(30_000, unexpectedBackoff * 2);
                batch.values().forEach(p -> requeue(p.deliveries));
            }
        }
    }

    /** Until the next waiting change is due (at most 200 ms: the loop also watches for the stop). */
    private long pollWait() {
        long wait = TimeUnit.MILLISECONDS.toNanos(200);
        long now = System.nanoTime();
        for (var pending : waiting.values()) {
            wait = Math.min(wait, Math.max(0, pending.recheckAt - now));
        }
        return wait;
    }

    /** Changes whose writes are awaited join the batch when they are due, or when a newer event of theirs came. */
    private void takeDueWaiting(Map<UUID, Pending> batch) {
        long now = System.nanoTime();
        var due = waiting.entrySet().iterator();
        while (due.hasNext()) {
            var entry = due.next();
            var arrived = batch.get(entry.getKey());
            if (arrived != null) {
                arrived.addAll(entry.getValue());
                due.remove();
            } else if (entry.getValue().recheckAt - now <= 0) {
                batch.put(entry.getKey(), entry.getValue());
                due.remove();
            }
        }
        waitingCount.set(waiting.size());
    }

    /** Change events by profile; what is no change event of a profile is dead-lettered at once. */
    private Map<UUID, Pending> parse(List<Delivery> deliveries) {
        var batch = new LinkedHashMap<UUID, Pending>();
        for (var delivery : deliveries) {
            ChangeEvent event;
            try {
                event = json.readValue(delivery.body(), ChangeEvent.class);
            } catch (Exception e) {
                deadLetter(List.of(delivery), "not a change event");
                continue;
            }
            if (event.entityId() == null || !"profile".equals(event.entityType())) {
                deadLetter(List.of(delivery), "not a profile change");
                continue;
            }
            batch.computeIfAbsent(event.entityId(), pid -> new Pending()).add(delivery, event);
        }
        return batch;
    }

    private void process(Map<UUID, Pending> batch) throws InterruptedException {
        var outcome = writeUntilDone(batch);
        if (outcome == null) {
            return; // stopping: the messages go back to the queue
        }
        var now = Instant.now();
        long recheckAt = System.nanoTime() + RECHECK.toNanos();
        batch.forEach((pid, pending) -> {
            if (outcome.waiting().contains(pid)) {
                pending.recheckAt = recheckAt;
                waiting.put(pid, pending);
            } else if (outcome.rejected().containsKey(pid)) {
                deadLetter(pending.deliveries, outcome.rejected().get(pid));
            } else {
                acknowledge(pending.deliveries);
                indexed.mark();
                var recorded = pending.newest.recordedAt();
                if (recorded != null) {
                    lag.update(Duration.between(recorded, now).toMillis());
                }
            }
        });
        waitingCount.set(waiting.size());
    }

    /**
     * Reads the profiles and writes what is ready until it works, waiting longer after each failure (up to 5 s).
     * Returns null when stopped first.
     */
    private BatchWriter.Outcome writeUntilDone(Map<UUID, Pending> batch) throws InterruptedException {
        var newest = new LinkedHashMap<UUID, ChangeEvent>();
        batch.forEach((pid, pending) -> newest.put(pid, pending.newest));
        long backoff = 100;
        while (true) {
            try {
                var outcome = writer.write(newest);
                failingSince.set(null);
                return outcome;
            } catch (CassandraUnavailableException | IOException | ElasticsearchException e) {
                failing(e);
                if (stopped.await(backoff, TimeUnit.MILLISECONDS)) {
                    return null;
                }
                backoff = Math.min(5_000, backoff * 2);
            }
        }
    }

    private void failing(Exception e) {
        if (failingSince.compareAndSet(null, Instant.now())) {
            // the kind of failure only: Elasticsearch's reasons may quote a document's values
            LOG.warn("indexing failed ({}); retrying with backoff until it works", failureKind(e));
        }
        lastFailure.set(failureKind(e));
    }

    private static String failureKind(Exception e) {
        if (e instanceof ElasticsearchException es && es.error() != null) {
            return "Elasticsearch " + es.status() + " " + es.error().type();
        }
        return e.getClass().getSimpleName();
    }

    private static long fence(ChangeEvent event) {
        return event.fence() == null ? Long.MIN_VALUE : event.fence();
    }

    private void acknowledge(List<Delivery> deliveries) {
        for (var delivery : deliveries) {
            try {
                channel.basicAck(delivery.tag(), false);
            } catch (Exception e) {
                // the channel was lost and recovered: the broker redelivers, which is harmless
            }
        }
    }

    private void requeue(List<Delivery> deliveries) {
        for (var delivery : deliveries) {
            try {
                channel.basicNack(delivery.tag(), false, true);
            } catch (Exception e) {
                // the channel was lost: the broker redelivers what was not acknowledged
            }
        }
    }

    private void deadLetter(List<Delivery> deliveries, String why) {
        LOG.warn("dead-lettering {} message(s): {}", deliveries.size(), why);
        for (var delivery : deliveries) {
            poison.mark();
            try {
                channel.basicReject(delivery.tag(), false);
            } catch (Exception e) {
                // redelivered later and judged again
            }
        }
    }

    private void measureQueues() {
        try (var probe = rabbitmq.createChannel()) {
            queueDepth.set(probe.queueDeclarePassive(EventTopology.QUEUE).getMessageCount());
            deadLetters.set(probe.queueDeclarePassive(EventTopology.DEAD_QUEUE).getMessageCount());
        } catch (Exception e) {
            queueDepth.set(-1);
            deadLetters.set(-1);
        }
    }
}
