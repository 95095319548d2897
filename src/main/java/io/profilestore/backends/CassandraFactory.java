package io.profilestore.backends;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.StrippedText;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * How the service reaches Cassandra. Every request runs at QUORUM: that is a rule of the design, not a setting.
 */
public class CassandraFactory {

    /** Contact points as {@code host:port}; the driver discovers the rest of the ring from them. */
    @NotEmpty
    public List<@Pattern(regexp = "[^:\\s]+:\\d{1,5}") String> contactPoints = List.of("127.0.0.1:19042");

    @NotEmpty
    public String localDatacenter = "datacenter1";

    @NotEmpty
    @Pattern(regexp = "[a-z][a-z0-9_]{0,47}")
    public String keyspace = "profiles";

    @Valid
    @NotNull
    public ReplicationSettings replication = new ReplicationSettings();

    @NotNull
    public Duration requestTimeout = Duration.seconds(2);

    /** Unset: the driver logs in as nobody (a cluster without authentication). */
    public String username;

    /** Also what {@code migrate} gives the role {@code username} when it creates it. */
    @JsonSetter(nulls = Nulls.AS_EMPTY)
    public String password = "";

    /**
     * A superuser for {@code migrate} only: it creates the keyspace, and the role {@code username} with only what
     * the service needs (reads and writes on the keyspace). Empty: migrate runs as {@code username}.
     */
    @JsonDeserialize(using = StrippedText.class)
    public String migrationUsername = "";

    @JsonSetter(nulls = Nulls.AS_EMPTY)
    public String migrationPassword = "";

    @Valid
    @NotNull
    public TlsSettings tls = new TlsSettings();

    /** Whether {@code migrate} logs in as a superuser of its own and gives the service's role its grants. */
    public boolean hasSeparateMigrationUser() {
        return !migrationUsername.isEmpty() && username != null && !username.isBlank()
                && !migrationUsername.equals(username);
    }

    @ValidationMethod(message = "migrationUsername needs username: the role migrate makes for the service")
    @JsonIgnore
    public boolean isMigrationUserForARole() {
        return migrationUsername.isEmpty() || (username != null && !username.isBlank());
    }

    /**
     * Opens a session that is not bound to a keyspace (statements name their tables in full), so that the same
     * session serves {@code migrate}, which creates the keyspace.
     */
    public CqlSession build(MetricRegistry metrics) {
        return build(metrics, requestTimeout.toJavaDuration(), username, password);
    }

    /**
     * A session for schema changes: they wait until every node agrees, which takes far longer than a read or a
     * write (several seconds on a busy three-node cluster), so they get a timeout of their own.
     */
    public CqlSession buildForSchemaChanges(MetricRegistry metrics) {
        var timeout = java.time.Duration.ofSeconds(60);
        var longest = timeout.compareTo(requestTimeout.toJavaDuration()) > 0 ? timeout : requestTimeout.toJavaDuration();
        return hasSeparateMigrationUser()
                ? build(metrics, longest, migrationUsername, migrationPassword)
                : build(metrics, longest, username, password);
    }

    private CqlSession build(MetricRegistry metrics, java.time.Duration timeout, String user, String secret) {
        var config = DriverConfigLoader.programmaticBuilder()
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "SERIAL")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, timeout)
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, timeout)
                .withClass(DefaultDriverOption.RETRY_POLICY_CLASS, WriteTimeoutsRethrownPolicy.class)
                // statements say themselves whether they may be retried
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, false)
                .withStringList(DefaultDriverOption.METRICS_SESSION_ENABLED,
                        List.of("connected-nodes", "cql-requests", "cql-client-timeouts", "bytes-sent",
                                "bytes-received", "throttling.errors"))
                .withStringList(DefaultDriverOption.METRICS_NODE_ENABLED,
                        List.of("pool.open-connections", "pool.in-flight", "errors.request.unavailables",
                                "errors.request.write-timeouts", "errors.request.read-timeouts",
                                "retries.total", "speculative-executions"))
                .withString(DefaultDriverOption.SESSION_NAME, "profile-store")
                .build();
        var builder = CqlSession.builder()
                .withConfigLoader(config)
                .withLocalDatacenter(localDatacenter)
                .withMetricRegistry(metrics)
                .addContactPoints(contactPoints.stream().map(CassandraFactory::address).toList());
        if (user != null && !user.isBlank()) {
            builder.withAuthCredentials(user, secret);
        }
        if (tls.enabled) {
            builder.withSslEngineFactory(
                    new ProgrammaticSslEngineFactory(tls.sslContext(), null, tls.verifyHostname));
        }
        return builder.build();
    }

    static InetSocketAddress address(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        return new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
