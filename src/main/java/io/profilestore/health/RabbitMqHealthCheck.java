package io.profilestore.health;

import com.codahale.metrics.health.HealthCheck;
import com.rabbitmq.client.Connection;

/** Healthy while the connection is open; it reopens by itself after the broker comes back. */
public class RabbitMqHealthCheck extends HealthCheck {

    private final Connection connection;

    public RabbitMqHealthCheck(Connection connection) {
        this.connection = connection;
    }

    @Override
    protected Result check() {
        if (!connection.isOpen()) {
            return Result.unhealthy("connection to RabbitMQ is closed; recovering");
        }
        var server = connection.getServerProperties();
        return Result.healthy("RabbitMQ " + server.getOrDefault("version", "unknown"));
    }
}
