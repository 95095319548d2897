package io.profilestore.events;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.dropwizard.lifecycle.Managed;
import io.profilestore.db.Outbox;
import io.profilestore.db.OutboxNotifications;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.Executors;
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
 *
 * <p>It learns of new records without polling: a session of its own LISTENs ({@link OutboxNotifications}), and a
 * notification, sent when a transaction that recorded changes commits, wakes it at once. It still polls every
 * {@code pollInterval}, the fallback for what no notification announced: records of a moment when nobody listened,
 * records left for later ({@code not_before}). A lost session is opened again, after 1 s and then up to every
 * 30 s while it keeps failing; the polls go on meanwhile.
 */
public class OutboxRelay implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelay.class);
    private static final int BATCH = 500;
    /** How long a listening session may stay quiet before it is asked whether it is still there. */
    private static final Duration QUIET = Duration.ofSeconds(10);
    private static final Duration MAX_RECONNECT_DELAY = Duration.ofSeconds(30);

    private final Outbox outbox;
    private final OutboxNotifications notifications;
    private final Duration reconnectDelay;
    private final Connection rabbitmq;
    private final ObjectMapper json;
    private final Duration pollInterval;
    private final Duration retention;
    private final Meter published;
    private final Meter failures;
    private final Meter notified;
    private final Meter listenerFailures;
    private final AtomicBoolean listening = new AtomicBoolean();
    private final AtomicBoolean wakeQueued = new AtomicBoolean();
    private volatile boolean running;
    private Thread listener;
    private Instant lastListenerFailureLogged = Instant.EPOCH;
    private final AtomicReference<Outbox.Backlog> backlog = new AtomicReference<>(new Outbox.Backlog(0, null));
    private ScheduledExecutorService scheduler;
    private Channel channel;
    private Instant lastFailureLogged = Instant.EPOCH;

    public OutboxRelay(Outbox outbox, OutboxNotifications notifications, Connection rabbitmq, ObjectMapper json,
            Duration pollInterval, Duration retention, MetricRegistry metrics) {
        this(outbox, notifications, rabbitmq, json, pollInterval, retention, Duration.ofSeconds(1), metrics);
    }

    /** @param reconnectDelay the first pause before a lost listening session is opened again (it doubles up to 30 s) */
    OutboxRelay(Outbox outbox, OutboxNotifications notifications, Connection rabbitmq, ObjectMapper json,
            Duration pollInterval, Duration retention, Duration reconnectDelay, MetricRegistry metrics) {
        this.outbox = outbox;
        this.notifications = notifications;
        this.reconnectDelay = reconnectDelay;
        this.rabbitmq = rabbitmq;
        this.json = json;
        this.pollInterval = pollInterval;
        this.retention = retention;
        this.published = metrics.meter("events.relay.published");
        this.failures = metrics.meter("events.relay.failures");
        this.notified = metrics.meter("events.relay.notified");
        this.listenerFailures = metrics.meter("events.relay.listener-failures");
        metrics.register("events.relay.listening", (Gauge<Integer>) () -> listening.get() ? 1 : 0);
        metrics.register("events.outbox.backlog", (Gauge<Long>) () -> backlog.get().count());
        metrics.register("events.outbox.oldest-age-seconds", (Gauge<Long>) () -> {
            var oldest = backlog.get().oldest();
            return oldest == null ? 0 : Duration.between(oldest, Instant.now()).toSeconds();
        });
    }

    @Override
    public void start() {
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            var thread = new Thread(r, "outbox-relay");
            thread.setDaemon(true);
            return thread;
        });
        running = true;
        // the fallback: a poll of an indexed, usually empty set; it bounds the lag when no notification comes
        scheduler.scheduleWithFixedDelay(this::drain, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::housekeeping, 1, 5, TimeUnit.SECONDS);
        listener = new Thread(this::listen, "outbox-listener");
        listener.setDaemon(true);
        listener.start();
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        listener.interrupt();
        notifications.close(); // ends a wait for notifications
        listener.join(TimeUnit.SECONDS.toMillis(10));
        scheduler.shutdown();
        scheduler.awaitTermination(10, TimeUnit.SECONDS);
        closeChannel();
    }

    /** Whether the relay's session is listening now. */
    public boolean isListening() {
        return listening.get();
    }

    /**
     * The listener's loop: listen, drain once (what was recorded while nobody listened), then drain on every
     * notification. When the session is lost, the polls carry on alone until it is back.
     */
    private void listen() {
        long delay = reconnectDelay.toMillis();
        while (running) {
            try {
                notifications.listen();
                listening.set(true);
                delay = reconnectDelay.toMillis();
                wake();
                while (running) {
                    if (notifications.await(QUIET)) {
                        notified.mark();
                        wake();
                    } else {
                        notifications.check();
                    }
                }
            } catch (SQLException | RuntimeException e) {
                listening.set(false);
                notifications.close();
                if (!running) {
                    return;
                }
                listenerFailures.mark();
                if (Duration.between(lastListenerFailureLogged, Instant.now()).toSeconds() >= 30) {
                    lastListenerFailureLogged = Instant.now();
                    // the class and SQLState only: a server's message may quote what it was given
                    LOG.warn("listening for recorded changes failed ({}{}); polling every {} ms meanwhile, listening "
                            + "again in {} ms", e.getClass().getSimpleName(),
                            e instanceof SQLException sql && sql.getSQLState() != null ? " " + sql.getSQLState() : "",
                            pollInterval.toMillis(), delay);
                }
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException interrupted) {
                    return;
                }
                delay = Math.min(delay * 2, MAX_RECONNECT_DELAY.toMillis());
            }
        }
        listening.set(false);
    }

    /** Drains soon on the relay's thread; wakes that come while one waits are one. */
    private void wake() {
        if (wakeQueued.compareAndSet(false, true)) {
            try {
                scheduler.execute(() -> {
                    wakeQueued.set(false); // a notification from now on drains again
                    drain();
                });
            } catch (RejectedExecutionException stopping) {
                wakeQueued.set(false);
            }
        }
    }

    /** Publishes until the outbox is empty or something fails (then the next poll tries again). */
    void drain() {
        try {
            int sent;
            do {
                sent = outbox.relay(BATCH, this::publish);
                published.mark(sent);
            } while (sent == BATCH);
        } catch (Exception e) {
            failures.mark();
            closeChannel();
            if (Duration.between(lastFailureLogged, Instant.now()).toSeconds() >= 30) {
                lastFailureLogged = Instant.now();
                LOG.warn("relaying changes failed; they wait in the outbox and are retried: {}", e.toString());
            }
        }
    }

    private void publish(List<Outbox.Pending> batch) throws Exception {
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
