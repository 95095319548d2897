package io.profilestore.backends;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.ValidationMethod;
import io.profilestore.support.StrippedText;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.util.Arrays;
import java.util.Locale;

/** The PostgreSQL that holds the lock table and the outbox, reached through a HikariCP pool. */
public class PostgresFactory {

    @NotEmpty
    @Pattern(regexp = "jdbc:postgresql:.*")
    public String url = "jdbc:postgresql://127.0.0.1:15432/profilestore";

    /** The service's own role: rows of the lock table and the outbox, and the audit trail to append to only. */
    @NotEmpty
    public String user = "profilestore";

    public String password = "";

    /**
     * The role {@code migrate} connects as, which owns the tables and grants the service's role what it needs;
     * empty: the service's role itself, which would then own the audit trail and could edit it, so {@code migrate}
     * refuses (see {@code AuditTrailOwner}).
     */
    @JsonDeserialize(using = StrippedText.class)
    public String migrationUser = "";

    public String migrationPassword = "";

    @Min(1)
    @Max(500)
    public int maxPoolSize = 16;

    @NotNull
    public Duration connectionTimeout = Duration.seconds(2);

    /** The longest wait for one answer of PostgreSQL: bounds a request when the server hangs. */
    @NotNull
    public Duration socketTimeout = Duration.seconds(5);

    /**
     * On: the server's certificate is checked ({@code sslmode=verify-full}, or {@code verify-ca} without the host
     * name check). Off: no TLS at all ({@code sslmode=disable}), so that a server that requires it refuses loudly
     * instead of the driver's default encrypting without checking anything.
     */
    @Valid
    @NotNull
    public TlsSettings tls = new TlsSettings();

    /** Whether {@code migrate} runs as an owner of its own, so that the service's role can be held to less. */
    public boolean hasSeparateOwner() {
        return !migrationUser.isEmpty() && !migrationUser.equals(user);
    }

    /** A small pool for {@code migrate} (Flyway holds a second connection for its lock), as the owner when there is one. */
    public HikariDataSource buildForMigration(MetricRegistry metrics) {
        var config = asOwner(hikari("profile-store-migrate", metrics));
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        config.setInitializationFailTimeout(1);
        // a migration may wait on locks held by running instances: no socket timeout of a request's length
        config.addDataSourceProperty("socketTimeout", "300");
        return new HikariDataSource(config);
    }

    private HikariConfig asOwner(HikariConfig config) {
        if (hasSeparateOwner()) {
            config.setUsername(migrationUser);
            config.setPassword(migrationPassword);
        }
        return config;
    }

    /** TLS is the tls block's: a parameter in the URL would override it (the driver lets the URL win). */
    @ValidationMethod(message = "url must carry no ssl parameters (sslmode, sslrootcert, ...): use postgres.tls")
    @JsonIgnore
    public boolean isUrlWithoutSslParameters() {
        int query = url == null ? -1 : url.indexOf('?');
        return query < 0 || Arrays.stream(url.substring(query + 1).split("&"))
                .noneMatch(parameter -> parameter.toLowerCase(Locale.ROOT).startsWith("ssl"));
    }

    /**
     * The pool starts without connecting ({@code initializationFailTimeout = -1}): a PostgreSQL that is down at
     * start-up shows as an unhealthy check and 503s, not as a service that refuses to start.
     */
    public HikariDataSource build(MetricRegistry metrics, String poolName) {
        return new HikariDataSource(hikari(poolName, metrics));
    }

    private HikariConfig hikari(String poolName, MetricRegistry metrics) {
        var config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(url);
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(maxPoolSize);
        config.setMinimumIdle(Math.min(2, maxPoolSize));
        config.setConnectionTimeout(connectionTimeout.toMilliseconds());
        config.setValidationTimeout(Math.min(connectionTimeout.toMilliseconds(), 1000));
        config.setInitializationFailTimeout(-1);
        config.setMetricRegistry(metrics);
        // a dead server must not hang a request thread for the kernel's TCP timeout
        config.addDataSourceProperty("socketTimeout", String.valueOf(Math.max(1, socketTimeout.toSeconds())));
        config.addDataSourceProperty("connectTimeout", String.valueOf(Math.max(1, connectionTimeout.toSeconds())));
        config.addDataSourceProperty("tcpKeepAlive", "true");
        config.addDataSourceProperty("ApplicationName", "profile-store");
        if (!tls.enabled) {
            config.addDataSourceProperty("sslmode", "disable");
        } else {
            config.addDataSourceProperty("sslmode", tls.verifyHostname ? "verify-full" : "verify-ca");
            if (tls.hasCaFile()) {
                // the driver reads the file itself, at each connection: read it once here too, so that a missing
                // or broken file stops the start with its name
                tls.sslContext();
                config.addDataSourceProperty("sslrootcert", tls.caFile);
            } else {
                // without a CA file the driver would look for ~/.postgresql/root.crt: use the JVM's trust store
                config.addDataSourceProperty("sslfactory", "org.postgresql.ssl.DefaultJavaSSLFactory");
            }
        }
        return config;
    }
}
