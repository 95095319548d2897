package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import io.profilestore.indexer.Indexer;
import java.time.Duration;

/** Unhealthy when the indexer has been failing for over a minute (Cassandra or Elasticsearch away). */
public class IndexerHealthCheck extends HealthCheck {

    private final Indexer indexer;

    public IndexerHealthCheck(Indexer indexer) {
        this.indexer = indexer;
    }

    @Override
    protected Result check() {
        var failure = indexer.failure(Duration.ofMinutes(1));
        return failure != null ? Result.unhealthy(failure)
                : Result.healthy("indexing; " + indexer.queueDepth() + " message(s) waiting");
    }
}
