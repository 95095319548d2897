package io.profilestore.indexer;

import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** The indexer: where it runs and how it batches. */
public class IndexerSettings {

    /** Run the indexer inside the API server too (the local run does; production runs the indexer command). */
    public boolean inProcess = false;

    /** Messages handed to the indexer before it acknowledges any: bounds memory and redelivery after a crash. */
    @Min(1)
    @Max(10_000)
    public int prefetch = 1000;

    /** Messages per bulk request at most. */
    @Min(1)
    @Max(5_000)
    public int batchSize = 500;

    /** How long a batch waits for more messages once it has one: a little latency for fewer, larger bulks. */
    @NotNull
    public Duration linger = Duration.milliseconds(20);

    /** How often the relay looks for recorded changes to publish besides being woken by the changes of its process. */
    @NotNull
    public Duration relayInterval = Duration.seconds(1);

    /**
     * How long the relay, woken by a change of its process, waits before it publishes, so that the changes made
     * meanwhile go in the same transaction and confirm: a little index lag for far fewer round trips at high rates.
     */
    @NotNull
    @MaxDuration(value = 1, unit = TimeUnit.SECONDS)
    public Duration relayLinger = Duration.milliseconds(25);

    /** How long published outbox rows are kept (for inspection) before they are deleted. */
    @NotNull
    public Duration outboxRetention = Duration.days(1);

    /**
     * How far the indexer's clock may be from PostgreSQL's: a change whose write has not landed is waited for until
     * its writer's lease (PostgreSQL's clock) has run out by the indexer's clock, plus this much.
     */
    @NotNull
    public Duration leaseClockTolerance = Duration.seconds(2);
}
