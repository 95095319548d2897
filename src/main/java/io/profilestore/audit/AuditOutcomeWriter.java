package io.profilestore.audit;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends the outcomes of changes once their callers have been answered, off the request's path: a change's record
 * is already durable (written with the change), and the status its caller got is a fact to add, not a condition of
 * the answer. One thread writes what has queued, one statement per status. An outcome that cannot be written (the
 * queue full, PostgreSQL down) stays unknown in the trail, counted in {@code audit.failures}, as before.
 */
public final class AuditOutcomeWriter extends QueueWriter<AuditOutcomeWriter.Outcome> implements ChangeOutcomes {

    /** Outcomes waiting to be written now. */
    public static final String QUEUED = "audit.outcomes-queued";

    private static final Logger LOG = LoggerFactory.getLogger(AuditOutcomeWriter.class);
    private static final int MAX_BATCH = 1_000;
    /**
     * How long a batch waits for more outcomes once it has one: at 100 changes a second, a statement and a commit for
     * a few outcomes instead of one each. An outcome is read from the trail, never by the answer it follows.
     */
    static final Duration LINGER = Duration.ofMillis(20);

    record Outcome(List<Long> recordIds, int status) {
    }

    private final AuditLog log;
    private final Meter failures;

    /**
     * Queues {@code outcomeQueueSize} outcomes at most; stopping writes what is queued, for
     * {@link AuditSettings#stopWait()} at most, and what is left then stays unknown in the trail.
     */
    public AuditOutcomeWriter(AuditLog log, AuditSettings settings, MetricRegistry metrics) {
        super("audit-outcome-writer", settings.outcomeQueueSize, MAX_BATCH, LINGER, settings.stopWait());
        this.log = log;
        this.failures = metrics.meter(AuditLog.FAILURES);
        metrics.gauge(QUEUED, () -> this::queued);
    }

    /** Queues the status the caller of these changes was answered; returns at once. */
    @Override
    public void recordOutcome(List<Long> recordIds, int status) {
        var outcome = new Outcome(List.copyOf(recordIds), status);
        if (!taking() || !offer(outcome)) {
            failures.mark();
            LOG.warn("a change's outcome stays unknown in the audit trail: {}",
                    taking() ? "the audit outcome queue is full" : "the audit outcome writer has stopped");
            return;
        }
        // the writer stopped between the check and the queueing, after its last look at the queue: nobody would take it
        if (!taking() && takeBack(outcome)) {
            abandon(List.of(outcome), new IllegalStateException("the audit outcome writer has stopped"));
        }
    }

    /** One statement per status. */
    @Override
    void write(List<Outcome> batch) {
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

    /** Counted in audit.failures, a change at a time, like an outcome the full queue refuses. */
    @Override
    void abandon(List<Outcome> outcomes, Throwable why) {
        failures.mark(outcomes.size());
        LOG.warn("{} change outcome(s) not written ({}); they stay unknown in the audit trail", outcomes.size(),
                why.getMessage());
    }
}
