package io.profilestore.backends;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.SocketConfigurators;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.io.IOException;
import java.util.concurrent.TimeoutException;

/** How the service reaches RabbitMQ, which carries change events to the indexer. */
public class RabbitMqFactory {

    @NotEmpty
    @Pattern(regexp = "amqps?://.*")
    public String uri = "amqp://guest:guest@127.0.0.1:15673/%2F";

    @NotNull
    public Duration connectionTimeout = Duration.seconds(5);

    @NotNull
    public Duration recoveryInterval = Duration.seconds(2);

    /**
     * On exactly when the URI is {@code amqps}: the server's certificate is checked against {@code tls.caFile} (an
     * operator's own CA; the client alone knows only the JVM's trust store), and its name unless told not to.
     */
    @Valid
    @NotNull
    public TlsSettings tls = new TlsSettings();

    @ValidationMethod(message = "tls.enabled must be true exactly when the uri is amqps://")
    @JsonIgnore
    public boolean isTlsMatchingUri() {
        return uri == null || tls == null || uri.regionMatches(true, 0, "amqps:", 0, 6) == tls.enabled;
    }

    /** A connection factory that recovers connections and topology by itself after a broker restart. */
    public ConnectionFactory connectionFactory() {
        var factory = new ConnectionFactory();
        try {
            factory.setUri(uri);
        } catch (Exception e) {
            throw new IllegalArgumentException("rabbitmq.uri is not a valid AMQP URI", e);
        }
        if (tls.enabled) {
            var context = tls.sslContext();
            factory.setSslContextFactory(name -> context);
            factory.setSocketFactory(context.getSocketFactory());
            // setUri gave an amqps URI the JVM's trust store and the host name check; set both from the settings
            factory.setSocketConfigurator(tls.verifyHostname
                    ? SocketConfigurators.defaultConfigurator().andThen(SocketConfigurators.enableHostnameVerification())
                    : SocketConfigurators.defaultConfigurator());
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
