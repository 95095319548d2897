package io.profilestore.backends;

import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.concurrent.TimeUnit;

/**
 * The per-environment part of the index settings; everything else (analysis, mappings) comes from
 * {@code es-mappings/}. One primary and no replica on a developer's single node; four and one in production.
 */
public class IndexSettings {

    @Min(1)
    @Max(64)
    public int shards = 1;

    @Min(0)
    @Max(5)
    public int replicas = 0;

    /**
     * How often Elasticsearch makes what was indexed searchable ({@code index.refresh_interval}): what a change waits,
     * at most, between being indexed and being found. Every refresh that follows writes makes a segment, which merges
     * then fold into larger ones: a shorter interval costs indexing throughput (docs/design/write-path.md, "How the
     * index follows Cassandra"). Set by {@code migrate} on a new index and on the index in use.
     */
    @NotNull
    @MinDuration(value = 100, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 60, unit = TimeUnit.SECONDS)
    public Duration refreshInterval = Duration.milliseconds(500);

    /** The refresh interval as Elasticsearch writes it ({@code 500ms}). */
    public String refreshIntervalSetting() {
        return refreshInterval.toMilliseconds() + "ms";
    }
}
