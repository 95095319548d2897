package io.profilestore.events;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.postgres.PostgresOutbox;
import io.profilestore.support.DaemonScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves recorded changes from the outbox to RabbitMQ: persistent messages, publisher confirms, then the rows are
 * marked published. While RabbitMQ is away the rows simply wait; nothing is lost and writes go on.
 */
public class OutboxRelay implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);
    private static final int BATCH = 500;
    /** Changes published by one drain of the outbox (one per wake or poll that found any). */
    public static final String DRAINED = "events.relay.drained";

    private final PostgresOutbox outbox;
    private final Connection rabbitmq;
    private final ObjectMapper json;
    private final Duration pollInterval;
    private final Duration wakeLinger;
    private final Duration retention;
    private final Meter published;
    private final Histogram drained;
    private final Meter failures;
    private final AtomicReference<PostgresOutbox.Backlog> backlog = new AtomicReference<>(new PostgresOutbox.Backlog(0, null));
    private volatile ScheduledExecutorService scheduler;
    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private Channel channel;
    private Instant lastFailureLogged = Instant.EPOCH;

    /**
     * {@code wakeLinger}: how long a wake waits before it drains, so that the changes made meanwhile go with it
     * (one transaction and one confirm for the lot instead of one each).
     */
    public OutboxRelay(PostgresOutbox outbox, Connection rabbitmq, ObjectMapper json, Duration pollInterval, Duration wakeLinger,
            Duration retention, MetricRegistry metrics) {
        this.outbox = outbox;
        this.rabbitmq = rabbitmq;
        this.json = json;
        this.pollInterval = pollInterval;
        this.wakeLinger = wakeLinger;
        this.retention = retention;
        this.published = metrics.meter("events.relay.published");
        this.drained = metrics.histogram(DRAINED);
        this.failures = metrics.meter("events.relay.failures");
        metrics.register("events.outbox.backlog", (Gauge<Long>) () -> backlog.get().count());
        metrics.register("events.outbox.oldest-age-seconds", (Gauge<Long>) () -> {
            var oldest = backlog.get().oldest();
            return oldest == null ? 0 : Duration.between(oldest, Instant.now()).toSeconds();
        });
    }

    @Override
    public void start() {
        scheduler = DaemonScheduler.named("outbox-relay");
        // the fallback: changes of this process wake it (wake()); a poll of an indexed, usually empty set finds the
        // others' (the CronJobs') and those announced again for later
        scheduler.scheduleWithFixedDelay(this::drain, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::housekeeping, 1, 5, TimeUnit.SECONDS);
    }

    /**
     * Relays what is in the outbox after the wake's linger rather than at the next poll: a change was just
     * recorded. Wakes that come while one lingers count once; one that comes while a drain runs lingers anew.
     */
    public void wake() {
        var current = scheduler;
        if (current != null && wakeQueued.compareAndSet(false, true)) {
            try {
                current.schedule(() -> {
                    wakeQueued.set(false);
                    drain();
                }, wakeLinger.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException stopping) {
                wakeQueued.set(false);
            }
        }
    }

    /**
     * How long a stop waits for the drain under way at most: a pod has terminationGracePeriodSeconds to stop in (see
     * AuditSettings.MAX_STOP_WAIT for the sum). A drain cut short leaves its rows unpublished, for the next relay.
     */
    public static final Duration STOP_WAIT = Duration.ofSeconds(3);

    @Override
    public void stop() throws InterruptedException {
        scheduler.shutdown();
        if (!scheduler.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
            scheduler.shutdownNow();
        }
        closeChannel();
    }

    /** Publishes until the outbox is empty or something fails (then the next poll tries again). */
    void drain() {
        int total = 0;
        try {
            int sent;
            do {
                sent = outbox.relay(BATCH, this::publish);
                published.mark(sent);
                total += sent;
            } while (sent == BATCH);
        } catch (Exception e) {
            failures.mark();
            closeChannel();
            if (Duration.between(lastFailureLogged, Instant.now()).toSeconds() >= 30) {
                lastFailureLogged = Instant.now();
                LOG.warn("relaying changes failed; they wait in the outbox and are retried: {}", e.toString());
            }
        } finally {
            if (total > 0) {
                drained.update(total);
            }
        }
    }

    private void publish(List<PostgresOutbox.Pending> batch) throws Exception {
        var out = channel();
        for (var change : batch) {
            var event = new ChangeEvent(change.entityType(), change.entityId(), change.version(), change.fence(),
                    change.recordedAt(), change.erased(), change.leaseUntil());
            var properties = new AMQP.BasicProperties.Builder()
                    .contentType("application/json")
                    .deliveryMode(2)
                    .messageId(Long.toString(change.id()))
                    .timestamp(Date.from(change.recordedAt()))
                    .build();
            out.basicPublish(EventTopology.EXCHANGE, EventTopology.ROUTING_KEY, properties, json.writeValueAsBytes(event));
        }
        out.waitForConfirmsOrDie(10_000);
    }

    private Channel channel() throws Exception {
        if (channel == null || !channel.isOpen()) {
            var fresh = rabbitmq.createChannel();
            EventTopology.declare(fresh);
            fresh.confirmSelect();
            channel = fresh;
        }
        return channel;
    }

    private void closeChannel() {
        var current = channel;
        channel = null;
        if (current != null && current.isOpen()) {
            try {
                current.close();
            } catch (Exception ignored) {
                // the broker is gone; so is the channel
            }
        }
    }

    private void housekeeping() {
        try {
            backlog.set(outbox.backlog());
            outbox.purge(retention);
        } catch (Exception e) {
            // PostgreSQL away: the write path reports it; the gauges keep their last values
        }
    }
}
