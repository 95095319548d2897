package io.profilestore.health;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.HealthStatus;
import com.codahale.metrics.health.HealthCheck;

/**
 * Asks {@code GET /_cluster/health}: {@code GET /} (the client's ping and info) answers 405 in the minimal
 * distribution used for local runs, and cluster health says more anyway. Red is unhealthy; yellow is a warning
 * in the message only, since a single node never places replicas.
 */
public class ElasticsearchHealthCheck extends HealthCheck {

    private final ElasticsearchClient client;

    public ElasticsearchHealthCheck(ElasticsearchClient client) {
        this.client = client;
    }

    @Override
    protected Result check() throws Exception {
        var health = client.cluster().health();
        var message = "cluster %s is %s with %d nodes".formatted(
                health.clusterName(), health.status().jsonValue(), health.numberOfNodes());
        return health.status() == HealthStatus.Red ? Result.unhealthy(message) : Result.healthy(message);
    }
}
