package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import io.profilestore.audit.QueueWriter;
import java.util.List;

/**
 * Unhealthy when an audit writer's thread has ended while the service runs: operators' look-ups are then refused
 * (503 audit-unavailable), or changes' outcomes stay unknown, until the pod is replaced.
 */
public class AuditWritersHealthCheck extends HealthCheck {

    private final List<QueueWriter<?>> writers;

    public AuditWritersHealthCheck(List<QueueWriter<?>> writers) {
        this.writers = List.copyOf(writers);
    }

    @Override
    protected Result check() {
        var stalled = writers.stream().filter(QueueWriter::stalled).map(QueueWriter::name).toList();
        return stalled.isEmpty() ? Result.healthy("writing") : Result.unhealthy("not writing: " + String.join(", ", stalled));
    }
}
