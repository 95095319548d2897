package io.profilestore.indexer;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.SlidingTimeWindowArrayReservoir;
import com.codahale.metrics.Timer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.db.CassandraUnavailableException;
import io.profilestore.db.SearchIndex;
import io.profilestore.events.ChangeEvent;
import io.profilestore.events.EventTopology;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
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
 * writes, with the profile version as external version. Duplicated, reordered and stale messages are therefore
 * harmless. A message is acknowledged only after its bulk succeeded; while Cassandra or Elasticsearch is away the
 * batch is retried and nothing is acknowledged; a message that can never be indexed goes to the dead-letter
 * queue and is counted.
 */
public class Indexer implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(Indexer.class);

    private record Delivery(long tag, byte[] body) {
    }

    private final Connection rabbitmq;
    private final ProfileDocuments documents;
    private final SearchIndex index;
    private final ObjectMapper json;
    private final IndexerSettings settings;
    private final LinkedBlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Meter indexed;
    private final Meter poison;
    private final Timer bulkLatency;
    private final Histogram lag;
    private final AtomicLong queueDepth = new AtomicLong(-1);
    private final AtomicLong deadLetters = new AtomicLong(-1);
    private final AtomicReference<Instant> failingSince = new AtomicReference<>();
    private final AtomicReference<String> lastFailure = new AtomicReference<>("");
    private volatile Channel channel;
    private Thread worker;
    private ScheduledExecutorService gauges;

    public Indexer(Connection rabbitmq, ProfileDocuments documents, SearchIndex index, ObjectMapper json,
            IndexerSettings settings, MetricRegistry metrics) {
        this.rabbitmq = rabbitmq;
        this.documents = documents;
        this.index = index;
        this.json = json;
        this.settings = settings;
        this.indexed = metrics.meter("indexer.indexed");
        this.poison = metrics.meter("indexer.dead-lettered");
        this.bulkLatency = metrics.timer("indexer.bulk");
        this.lag = metrics.register("indexer.lag-ms", new Histogram(new SlidingTimeWindowArrayReservoir(5, TimeUnit.MINUTES)));
        metrics.register("indexer.queue-depth", (Gauge<Long>) queueDepth::get);
        metrics.register("indexer.dead-letter-queue-depth", (Gauge<Long>) deadLetters::get);
    }

    @Override
    public void start() throws Exception {
        var consuming = rabbitmq.createChannel();
        EventTopology.declare(consuming);
        consuming.basicQos(settings.getPrefetch());
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
        gauges = Executors.newSingleThreadScheduledExecutor(r -> {
            var thread = new Thread(r, "indexer-gauges");
            thread.setDaemon(true);
            return thread;
        });
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

    private void work() {
        while (stopped.getCount() > 0) {
            try {
                var first = inbox.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                var batch = new ArrayList<Delivery>(List.of(first));
                long lingerUntil = System.nanoTime() + settings.getLinger().toNanoseconds();
                while (batch.size() < settings.getBatchSize()) {
                    var next = inbox.poll(Math.max(0, lingerUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    batch.add(next);
                    inbox.drainTo(batch, settings.getBatchSize() - batch.size());
                }
                process(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("indexer batch failed unexpectedly; its messages return to the queue", e);
            }
        }
    }

    private void process(List<Delivery> batch) throws InterruptedException {
        var events = new LinkedHashMap<UUID, List<Delivery>>();
        var newest = new HashMap<UUID, ChangeEvent>();
        for (var delivery : batch) {
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
            events.computeIfAbsent(event.entityId(), pid -> new ArrayList<>()).add(delivery);
            // the newest by fence: a removal must carry the fence of the erase, above all others
            newest.merge(event.entityId(), event, (a, b) -> fence(a) >= fence(b) ? a : b);
        }
        if (events.isEmpty()) {
            return;
        }
        var rejected = writeUntilDone(events.keySet(), newest);
        if (rejected == null) {
            return; // stopping: the messages go back to the queue
        }
        var now = Instant.now();
        for (var entry : events.entrySet()) {
            if (rejected.containsKey(entry.getKey())) {
                deadLetter(entry.getValue(), rejected.get(entry.getKey()));
            } else {
                acknowledge(entry.getValue());
                indexed.mark();
                var recorded = newest.get(entry.getKey()).recordedAt();
                if (recorded != null) {
                    lag.update(Duration.between(recorded, now).toMillis());
                }
            }
        }
    }

    /**
     * Reads the profiles and writes them until it works, waiting longer after each failure (up to 5 s). Returns
     * the pids Elasticsearch rejected for good, with why, or null when stopped first.
     */
    private Map<UUID, String> writeUntilDone(Set<UUID> pids, Map<UUID, ChangeEvent> newest) throws InterruptedException {
        long backoff = 100;
        while (true) {
            try {
                var current = documents.current(pids);
                var targets = index.writeTargets();
                var writes = new ArrayList<SearchIndex.Write>();
                for (UUID pid : pids) {
                    var document = current.get(pid);
                    for (String target : targets) {
                        writes.add(document != null ? new SearchIndex.Put(target, pid, document.document(), document.written())
                                : new SearchIndex.Remove(target, pid, newest.get(pid).fence()));
                    }
                }
                List<SearchIndex.Result> results;
                try (var timing = bulkLatency.time()) {
                    results = index.bulk(writes);
                }
                var rejected = new HashMap<UUID, String>();
                for (var result : results) {
                    LOG.debug("indexed {} in {}: {}", result.write().pid(), result.write().index(), result.outcome());
                    if (result.outcome() == SearchIndex.Outcome.REJECTED) {
                        // the error type only: Elasticsearch's reasons quote the document's values
                        String reason = result.reason();
                        rejected.put(result.write().pid(), reason == null ? "rejected" : reason.split(":", 2)[0]);
                    }
                }
                failingSince.set(null);
                return rejected;
            } catch (CassandraUnavailableException | java.io.IOException | co.elastic.clients.elasticsearch._types.ElasticsearchException e) {
                if (failingSince.compareAndSet(null, Instant.now())) {
                    // the kind of failure only: Elasticsearch's reasons may quote a document's values
                    LOG.warn("indexing failed ({}); retrying with backoff until it works", failureKind(e));
                }
                lastFailure.set(e.getMessage());
                if (stopped.await(backoff, TimeUnit.MILLISECONDS)) {
                    return null;
                }
                backoff = Math.min(5_000, backoff * 2);
            } catch (java.io.UncheckedIOException e) {
                // a profile whose data is not JSON: nothing to retry; its messages are dead-lettered
                var bad = new HashMap<UUID, String>();
                pids.forEach(pid -> bad.put(pid, "stored data that is not JSON"));
                return bad;
            }
        }
    }

    private static String failureKind(Exception e) {
        if (e instanceof co.elastic.clients.elasticsearch._types.ElasticsearchException es && es.error() != null) {
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
