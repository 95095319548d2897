package io.profilestore.audit;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.lifecycle.Managed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends the outcomes of changes once their callers have been answered, off the request's path: a change's record
 * is already durable (written with the change), and the status its caller got is a fact to add, not a condition of
 * the answer. One thread writes what has queued, one statement per status. An outcome that cannot be written (the
 * queue full, PostgreSQL down) stays unknown in the trail, counted in {@code audit.failures}, as before.
 */
public final class AuditOutcomeWriter implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(AuditOutcomeWriter.class);
    private static final Duration IDLE_POLL = Duration.ofMillis(100);
    private static final int MAX_BATCH = 1_000;

    private record Outcome(List<Long> recordIds, int status) {
    }

    private final AuditLog log;
    private final Duration maxDrain;
    private final BlockingQueue<Outcome> queue;
    private final Meter failures;
    private final Thread writer;
    private volatile boolean running = true;

    public AuditOutcomeWriter(AuditLog log, int queueSize, Duration maxDrain, MetricRegistry metrics) {
        this.log = log;
        this.maxDrain = maxDrain;
        this.queue = new ArrayBlockingQueue<>(queueSize);
        this.failures = metrics.meter(AuditLog.FAILURES);
        this.writer = new Thread(this::run, "audit-outcome-writer");
        this.writer.setDaemon(true);
    }

    @Override
    public void start() {
        writer.start();
    }

    /** Writes what is queued, for {@code maxDrain} at most; what is left then stays unknown in the trail. */
    @Override
    public void stop() throws InterruptedException {
        running = false;
        writer.join(maxDrain.toMillis());
        if (!queue.isEmpty()) {
            LOG.warn("{} change outcome(s) not written at shutdown; they stay unknown in the audit trail", queue.size());
        }
    }

    /** Queues the status the caller of these changes was answered; returns at once. */
    public void record(List<Long> recordIds, int status) {
        if (!queue.offer(new Outcome(List.copyOf(recordIds), status))) {
            failures.mark();
            LOG.warn("the audit outcome queue is full; a change's outcome stays unknown in the audit trail");
        }
    }

    private void run() {
        while (running || !queue.isEmpty()) {
            try {
                var first = queue.poll(IDLE_POLL.toNanos(), TimeUnit.NANOSECONDS);
                if (first == null) {
                    continue;
                }
                var batch = new ArrayList<Outcome>();
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void write(List<Outcome> batch) {
        Map<Integer, List<Long>> byStatus = new TreeMap<>();
        batch.forEach(outcome -> byStatus.computeIfAbsent(outcome.status(), s -> new ArrayList<>()).addAll(outcome.recordIds()));
        byStatus.forEach((status, ids) -> {
            try {
                log.recordOutcome(ids, status);
            } catch (RuntimeException e) {
                // AuditLog counted it; the records stand, their outcome stays unknown
                LOG.warn("{} change outcome(s) could not be written; they stay unknown in the audit trail", ids.size());
            }
        });
    }
}
