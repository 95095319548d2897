package io.profilestore.backends;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.CqlSession;
import com.rabbitmq.client.Connection;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeoutException;

/** The four clients, opened from one configuration and closed in reverse order. */
public record Backends(CqlSession cassandra, ElasticsearchClient elasticsearch, HikariDataSource postgres,
        Connection rabbitmq) implements AutoCloseable {

    /** The settings of the four clients, as the configuration holds them. */
    public record Settings(CassandraFactory cassandra, ElasticsearchFactory elasticsearch, PostgresFactory postgres,
            RabbitMqFactory rabbitmq) {
    }

    public static Backends open(Settings config, MetricRegistry metrics, String name) {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            var postgres = config.postgres().build(metrics, name + "-postgres");
            opened.add(postgres);
            var cassandra = config.cassandra().build(metrics);
            opened.add(cassandra);
            var elasticsearch = config.elasticsearch().build();
            opened.add(elasticsearch);
            var rabbitmq = config.rabbitmq().connect(name);
            return new Backends(cassandra, elasticsearch, postgres, rabbitmq);
        } catch (IOException | TimeoutException | RuntimeException e) {
            Collections.reverse(opened);
            closeAll(opened, e);
            throw e instanceof RuntimeException r ? r : new IllegalStateException("cannot reach RabbitMQ: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        var failure = new IllegalStateException("closing backends failed");
        closeAll(List.of(rabbitmq, elasticsearch, cassandra, postgres), failure);
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }

    private static void closeAll(List<AutoCloseable> resources, Exception failure) {
        for (var resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }
}
