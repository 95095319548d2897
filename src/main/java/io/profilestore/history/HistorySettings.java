package io.profilestore.history;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/** The {@code history} block of the configuration: how long versions are kept, and how they are paged (docs/history.md). */
public class HistorySettings {

    /**
     * How long a version is kept after a newer one replaced it: five years by default, as 115-FZ asks of identification
     * data after the relationship ends. The newest version of a profile, and an erase (which holds no data), are kept
     * until a purge. At most 20 years, Cassandra's longest TTL.
     */
    @NotNull
    @JsonProperty
    public Duration retention = Duration.days(1826);

    /** Versions on one page when the request does not say. */
    @Min(1)
    @Max(100)
    @JsonProperty
    public int defaultPageSize = 20;
}
