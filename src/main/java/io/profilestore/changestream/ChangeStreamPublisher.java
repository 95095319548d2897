package io.profilestore.changestream;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.SlidingTimeWindowArrayReservoir;
import com.datastax.oss.driver.api.core.DriverException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.UserJournalHistory;
import io.profilestore.change.VersionRows;
import io.profilestore.events.ChangeEvent;
import io.profilestore.events.ChangeStreamTopology;
import io.profilestore.events.EventTopology;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the change stream (docs/change-stream.md). Takes the service's change messages from its own queue
 * ({@code profile.changestream}, one active consumer across all processes, so that one publisher at a time decides the
 * order), and for each profile publishes what Cassandra's history holds above the profile's mark ({@link StreamBatch}),
 * confirmed by RabbitMQ, then raises the marks, then acknowledges. A message whose version has not landed yet is held
 * until it has, or its writer's lease ran out (then it never will: the change was refused, or is completed later with
 * messages of its own). At least once: a failure after a publish sends it again, with the same id.
 */
public class ChangeStreamPublisher implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeStreamPublisher.class);
    private static final Duration RECHECK = Duration.ofMillis(200);
    /** How much later a profile held back by a pending operation is looked at again: the recovery takes seconds. */
    private static final Duration HELD_RECHECK = Duration.ofSeconds(1);

    private record Delivery(long tag, ChangeEvent event) {
    }

    /** The messages of one profile not acknowledged yet, the newest version they announce, and until when to wait. */
    private static final class Pending {
        final List<Long> tags = new ArrayList<>();
        long version;
        Instant leaseUntil;
        long recheckAt;

        void add(Delivery delivery) {
            tags.add(delivery.tag());
            version = Math.max(version, delivery.event().version());
            var lease = delivery.event().leaseUntil();
            if (lease != null && (leaseUntil == null || lease.isAfter(leaseUntil))) {
                leaseUntil = lease;
            }
        }

        void addAll(Pending other) {
            tags.addAll(other.tags);
            version = Math.max(version, other.version);
            if (other.leaseUntil != null && (leaseUntil == null || other.leaseUntil.isAfter(leaseUntil))) {
                leaseUntil = other.leaseUntil;
            }
        }
    }

    private final Connection rabbitmq;
    private final VersionRows versions;
    private final UserJournalHistory journal;
    private final ObjectMapper json;
    private final ChangeStreamSettings settings;
    private final CloudEvents events;
    private final Duration leaseTolerance;
    private final LinkedBlockingQueue<Delivery> inbox = new LinkedBlockingQueue<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Map<UUID, Pending> waiting = new LinkedHashMap<>();
    private final AtomicLong waitingCount = new AtomicLong();
    private final AtomicReference<Instant> failingSince = new AtomicReference<>();
    private final Meter published;
    private final Histogram delay;
    private volatile Channel consuming;
    private Channel publishing;
    private Thread worker;
    private long backoff = 100;

    public ChangeStreamPublisher(Connection rabbitmq, VersionRows versions, UserJournalHistory journal, ObjectMapper json,
            ChangeStreamSettings settings, Duration leaseTolerance, MetricRegistry metrics) {
        this.rabbitmq = rabbitmq;
        this.versions = versions;
        this.journal = journal;
        this.json = json;
        this.settings = settings;
        this.events = new CloudEvents(json, settings.source, settings.includeValues);
        this.leaseTolerance = leaseTolerance;
        this.published = metrics.meter("changestream.published");
        this.delay = metrics.register("changestream.delay-ms",
                new Histogram(new SlidingTimeWindowArrayReservoir(5, TimeUnit.MINUTES)));
        metrics.register("changestream.waiting", (Gauge<Long>) waitingCount::get);
    }

    @Override
    public void start() throws Exception {
        var channel = rabbitmq.createChannel();
        EventTopology.declare(channel);
        ChangeStreamTopology.declare(rabbitmq, settings.queue, settings.maxAge, settings.maxBytes);
        channel.basicQos(Math.max(settings.batchSize * 2, 100));
        channel.basicConsume(EventTopology.STREAM_FEED, false, "changestream-" + UUID.randomUUID(), new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                ChangeEvent event;
                try {
                    event = json.readValue(body, ChangeEvent.class);
                } catch (Exception e) {
                    reject(envelope.getDeliveryTag());
                    return;
                }
                if (event.entityId() == null || !"profile".equals(event.entityType())) {
                    reject(envelope.getDeliveryTag());
                    return;
                }
                inbox.add(new Delivery(envelope.getDeliveryTag(), event));
            }
        });
        consuming = channel;
        worker = new Thread(this::work, "changestream");
        worker.setDaemon(true);
        worker.start();
    }

    @Override
    public void stop() throws Exception {
        stopped.countDown();
        worker.join(TimeUnit.SECONDS.toMillis(30));
        close(consuming); // what is not acknowledged goes back to the queue
        close(publishing);
    }

    /** Healthy unless publishing has failed for a while; says why. */
    public String failure(Duration tolerated) {
        var since = failingSince.get();
        return since != null && Duration.between(since, Instant.now()).compareTo(tolerated) > 0
                ? "publishing the change stream has failed since " + since : null;
    }

    private void work() {
        while (stopped.getCount() > 0) {
            var batch = new LinkedHashMap<UUID, Pending>();
            try {
                var first = inbox.poll(pollWait(), TimeUnit.NANOSECONDS);
                if (first != null) {
                    var deliveries = new ArrayList<>(List.of(first));
                    long lingerUntil = System.nanoTime() + settings.linger.toNanoseconds();
                    while (deliveries.size() < settings.batchSize) {
                        var next = inbox.poll(Math.max(0, lingerUntil - System.nanoTime()), TimeUnit.NANOSECONDS);
                        if (next == null) {
                            break;
                        }
                        deliveries.add(next);
                    }
                    deliveries.forEach(d -> batch.computeIfAbsent(d.event().entityId(), pid -> new Pending()).add(d));
                }
                takeDueWaiting(batch);
                if (!batch.isEmpty()) {
                    if (!publishUntilDone(batch)) {
                        return; // stopping: the messages go back to the queue
                    }
                    backoff = 100;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // a bug nobody foresaw: the messages go back (each redelivery counts towards the dead-letter limit),
                // after a pause, so that a failure that persists does not use their deliveries up in moments
                LOG.error("a change stream batch failed unexpectedly; its messages return to the queue", e);
                batch.values().forEach(pending -> pending.tags.forEach(this::requeue));
                try {
                    if (stopped.await(backoff, TimeUnit.MILLISECONDS)) {
                        return;
                    }
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = Math.min(30_000, backoff * 2);
            }
        }
    }

    /**
     * Publishes the batch until it works, waiting longer after each failure (up to 5 s), and keeps its messages
     * meanwhile: an outage of Cassandra, PostgreSQL or RabbitMQ must not use up their deliveries, which would
     * dead-letter them and leave their versions untold. What was published before a failure is published again, with
     * the same ids. Returns false when stopped first.
     */
    private boolean publishUntilDone(Map<UUID, Pending> batch) throws InterruptedException {
        long wait = 100;
        while (true) {
            try {
                publish(batch);
                failingSince.set(null);
                return true;
            } catch (CassandraUnavailableException | PostgresUnavailableException | DriverException | IOException
                    | TimeoutException | ShutdownSignalException e) {
                if (failingSince.compareAndSet(null, Instant.now())) {
                    LOG.warn("publishing the change stream failed ({}); retrying with backoff", e.getClass().getSimpleName());
                }
                close(publishing);
                publishing = null;
                if (stopped.await(wait, TimeUnit.MILLISECONDS)) {
                    return false;
                }
                wait = Math.min(5_000, wait * 2);
            }
        }
    }

    private void publish(Map<UUID, Pending> batch) throws IOException, TimeoutException, InterruptedException {
        var sent = new StreamBatch(versions, journal, events);
        var covered = new LinkedHashMap<UUID, StreamBatch.Covered>();
        batch.keySet().forEach(pid -> covered.put(pid, sent.profile(pid)));
        var out = publishing();
        for (var event : sent.events()) {
            var properties = new AMQP.BasicProperties.Builder().contentType(CloudEvents.CONTENT_TYPE).deliveryMode(2)
                    .messageId(event.path("id").asText()).type(event.path("type").asText()).build();
            out.basicPublish("", settings.queue, properties, events.bytes(event));
        }
        if (!sent.events().isEmpty()) {
            out.waitForConfirmsOrDie(10_000);
        }
        sent.marks().forEach((pid, mark) -> versions.streamedThrough(pid, mark.version(), mark.written()));
        var now = Instant.now();
        for (var event : sent.events()) {
            published.mark();
            if (event.hasNonNull("time")) {
                delay.update(Duration.between(Instant.parse(event.path("time").asText()), now).toMillis());
            }
        }
        long recheckAt = System.nanoTime() + RECHECK.toNanos();
        batch.forEach((pid, pending) -> {
            var done = covered.get(pid);
            boolean landed = pending.version <= done.through();
            // a version held back by a pending merge or unmerge is waited for as long as the operation is pending
            boolean never = !done.held()
                    && (pending.leaseUntil == null || now.isAfter(pending.leaseUntil.plus(leaseTolerance)));
            if (landed || never) {
                pending.tags.forEach(this::acknowledge);
            } else {
                pending.recheckAt = recheckAt + (done.held() ? HELD_RECHECK.toNanos() : 0);
                waiting.put(pid, pending);
            }
        });
        waitingCount.set(waiting.size());
    }

    private Channel publishing() throws IOException {
        if (publishing == null || !publishing.isOpen()) {
            var channel = rabbitmq.createChannel();
            channel.confirmSelect();
            publishing = channel;
        }
        return publishing;
    }

    /** Until the next waiting profile is due (at most 200 ms: the loop also watches for the stop). */
    private long pollWait() {
        long wait = TimeUnit.MILLISECONDS.toNanos(200);
        long now = System.nanoTime();
        for (var pending : waiting.values()) {
            wait = Math.min(wait, Math.max(0, pending.recheckAt - now));
        }
        return wait;
    }

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

    private void acknowledge(long tag) {
        try {
            consuming.basicAck(tag, false);
        } catch (Exception e) {
            // the channel was lost: the broker redelivers, and the marks make the repeat publish nothing
        }
    }

    private void requeue(long tag) {
        try {
            consuming.basicNack(tag, false, true);
        } catch (Exception e) {
            // the channel was lost: the broker redelivers what was not acknowledged
        }
    }

    private void reject(long tag) {
        LOG.warn("a message of the change stream's queue is no change of a profile: dead-lettered");
        try {
            consuming.basicReject(tag, false);
        } catch (Exception e) {
            // redelivered later and judged again
        }
    }

    private static void close(Channel channel) {
        if (channel != null && channel.isOpen()) {
            try {
                channel.close();
            } catch (Exception ignored) {
                // the broker is gone; so is the channel
            }
        }
    }
}
