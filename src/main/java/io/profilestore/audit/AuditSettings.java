package io.profilestore.audit;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/** How operators' look-ups are recorded: in groups, one commit each (see {@link AuditGroupWriter}). */
public class AuditSettings {

    /** Records committed together at most (one INSERT of this many rows). */
    @Min(1)
    @Max(1_000)
    private int maxGroupSize = 200;

    /**
     * How long a group waits for more records once it has one. Zero: a group is what queued while the last
     * commit was under way, which is enough under load and adds nothing to a lone look-up.
     */
    @NotNull
    @MaxDuration(value = 1, unit = TimeUnit.SECONDS)
    private Duration linger = Duration.milliseconds(0);

    /** Records waiting for their group at most: beyond, a look-up is refused at once (503) instead of queued. */
    @Min(1)
    @Max(100_000)
    private int queueSize = 1_000;

    /**
     * How long a look-up waits for its record's commit at most before it is refused (503): with PostgreSQL
     * frozen, this bounds every operator's request.
     */
    @NotNull
    @MinDuration(value = 1, unit = TimeUnit.MILLISECONDS)
    private Duration maxWait = Duration.seconds(5);

    @JsonProperty
    public int getMaxGroupSize() {
        return maxGroupSize;
    }

    @JsonProperty
    public void setMaxGroupSize(int maxGroupSize) {
        this.maxGroupSize = maxGroupSize;
    }

    @JsonProperty
    public Duration getLinger() {
        return linger;
    }

    @JsonProperty
    public void setLinger(Duration linger) {
        this.linger = linger;
    }

    @JsonProperty
    public int getQueueSize() {
        return queueSize;
    }

    @JsonProperty
    public void setQueueSize(int queueSize) {
        this.queueSize = queueSize;
    }

    @JsonProperty
    public Duration getMaxWait() {
        return maxWait;
    }

    @JsonProperty
    public void setMaxWait(Duration maxWait) {
        this.maxWait = maxWait;
    }
}
