package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import io.profilestore.changestream.ChangeStreamPublisher;
import java.time.Duration;

/**
 * Unhealthy when publishing the change stream has been failing for over a minute (Cassandra, PostgreSQL or RabbitMQ
 * away): other systems then miss the service's changes until it recovers, though none is lost.
 */
public class ChangeStreamHealthCheck extends HealthCheck {

    private final ChangeStreamPublisher publisher;

    public ChangeStreamHealthCheck(ChangeStreamPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    protected Result check() {
        var failure = publisher.failure(Duration.ofMinutes(1));
        return failure != null ? Result.unhealthy(failure) : Result.healthy("publishing the change stream");
    }
}
