package io.profilestore.audit;

import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * How look-ups are recorded: people's in groups, one commit each, before their answer (see {@link AuditGroupWriter});
 * machines' look-ups after their answer, by a writer of their own (see {@link MachineLookUpWriter}).
 */
public class AuditSettings {

    /**
     * How long a record of the trail is kept: older ones are removed by every API instance, hourly
     * ({@link AuditRetention}). Five years by default; at least 30 days (the database refuses less), at most 20 years.
     */
    @NotNull
    @MinDuration(value = 30, unit = TimeUnit.DAYS)
    @MaxDuration(value = 7305, unit = TimeUnit.DAYS)
    public Duration retention = Duration.days(1826);

    /** Records committed together at most (one INSERT of this many rows). */
    @Min(1)
    @Max(1_000)
    public int maxGroupSize = 200;

    /**
     * How long a group waits for more records once it has one. Zero: a group is what queued while the last
     * commit was under way, which is enough under load and adds nothing to a lone look-up.
     */
    @NotNull
    @MaxDuration(value = 1, unit = TimeUnit.SECONDS)
    public Duration linger = Duration.milliseconds(0);

    /** Records waiting for their group at most: beyond, a look-up is refused at once (503) instead of queued. */
    @Min(1)
    @Max(100_000)
    public int queueSize = 1_000;

    /**
     * Machines' look-up records waiting for their group at most (see {@link MachineLookUpWriter}): beyond, a machine's
     * look-up is refused at once (503). Also what a crash may lose of them at most (with the group being written).
     */
    @Min(1)
    @Max(100_000)
    public int machineSearchQueueSize = 10_000;

    /**
     * How long a group of machines' look-up records waits for more once it has one: nobody waits for it, so larger
     * groups cost nothing; a crash may lose this much time of them (and one group's write).
     */
    @NotNull
    @MaxDuration(value = 1, unit = TimeUnit.SECONDS)
    public Duration machineSearchLinger = Duration.milliseconds(20);

    /**
     * Changes' outcomes waiting to be written at most (see {@link AuditOutcomeWriter}): beyond, an outcome stays
     * unknown in the trail (counted in audit.failures); the change is answered all the same.
     */
    @Min(1)
    @Max(100_000)
    public int outcomeQueueSize = 10_000;

    /**
     * How long a look-up waits for its record's commit at most before it is refused (503): with PostgreSQL
     * frozen, this bounds every operator's request. At most 10 s, so that a look-up waits no longer than the server's
     * shutdownGracePeriod (10 s in the chart), which lets requests in flight end before the writers stop.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.SECONDS)
    public Duration maxWait = Duration.seconds(5);

    /**
     * How long each audit writer's stop waits for what is queued at most. A pod has terminationGracePeriodSeconds
     * (30 s in the chart) to stop in, and the stops come one after the other: the preStop pause (5 s), Jetty's drain
     * (server.shutdownGracePeriod, 10 s), then the managed objects, among them the audit writers (5 s each at most with
     * this bound, whatever maxWait is, and 1 s for the machine look-up writer) and the outbox relay
     * (OutboxRelay.STOP_WAIT, 3 s), which leaves 1 s for the rest (the backends' clients) before Kubernetes kills the
     * process. Look-ups in flight were answered during Jetty's drain; what is still queued once this runs out is
     * refused or, for outcomes, stays unknown.
     */
    public static final java.time.Duration MAX_STOP_WAIT = java.time.Duration.ofSeconds(5);

    /**
     * How long the machine look-up writer's stop waits at most, besides the other two's. Its look-ups were answered
     * during Jetty's drain while it wrote their records, so what it still holds is a linger's worth, soon written; a
     * stop that waited longer would be for a PostgreSQL that does not answer, and would not fit the grace period.
     */
    public static final java.time.Duration MAX_MACHINE_SEARCH_STOP_WAIT = java.time.Duration.ofSeconds(1);

    /** How long the machine look-up writer's stop waits for what is queued: {@link #stopWait()}, 1 s at most. */
    public java.time.Duration machineSearchStopWait() {
        var wait = stopWait();
        return wait.compareTo(MAX_MACHINE_SEARCH_STOP_WAIT) < 0 ? wait : MAX_MACHINE_SEARCH_STOP_WAIT;
    }

    /** How long an audit writer's stop waits for what is queued: {@code maxWait}, {@link #MAX_STOP_WAIT} at most. */
    public java.time.Duration stopWait() {
        var wait = maxWait.toJavaDuration();
        return wait.compareTo(MAX_STOP_WAIT) < 0 ? wait : MAX_STOP_WAIT;
    }
}
