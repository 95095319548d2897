package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** How the service reaches RabbitMQ, which carries change events to the indexer. */
public class RabbitMqFactory {

    @NotEmpty
    @Pattern(regexp = "amqps?://.*")
    private String uri = "amqp://guest:guest@127.0.0.1:15673/%2F";

    @NotNull
    private Duration connectionTimeout = Duration.seconds(5);

    @NotNull
    private Duration recoveryInterval = Duration.seconds(2);

    @JsonProperty
    public String getUri() {
        return uri;
    }

    @JsonProperty
    public void setUri(String uri) {
        this.uri = uri;
    }

    @JsonProperty
    public Duration getConnectionTimeout() {
        return connectionTimeout;
    }

    @JsonProperty
    public void setConnectionTimeout(Duration connectionTimeout) {
        this.connectionTimeout = connectionTimeout;
    }

    @JsonProperty
    public Duration getRecoveryInterval() {
        return recoveryInterval;
    }

    @JsonProperty
    public void setRecoveryInterval(Duration recoveryInterval) {
        this.recoveryInterval = recoveryInterval;
    }

    /** A connection factory that recovers connections and topology by itself after a broker restart. */
    public ConnectionFactory connectionFactory() {
        var factory = new ConnectionFactory();
        try {
            factory.setUri(uri);
        } catch (Exception e) {
            throw new IllegalArgumentException("rabbitmq.uri is not a valid AMQP URI", e);
        }
        factory.setConnectionTimeout((int) connectionTimeout.toMilliseconds());
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(recoveryInterval.toMilliseconds());
        factory.setRequestedHeartbeat(15);
        return factory;
    }

    public Connection connect(String connectionName) throws IOException, TimeoutException {
        return connectionFactory().newConnection(connectionName);
    }
}
