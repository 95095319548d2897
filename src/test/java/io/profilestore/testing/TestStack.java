package io.profilestore.testing;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.profilestore.backends.Backends;
import io.profilestore.backends.PostgresFactory;
import io.profilestore.cli.FileOrClasspathConfigurationSourceProvider;
import io.profilestore.cli.MigrateCommand;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.Endpoints;
import io.profilestore.stack.Stack;
import io.profilestore.stack.StackMode;
import io.profilestore.stack.StackSettings;
import java.net.URI;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * The stack every test of a run shares: started (or joined) on first use, left when the test JVM exits. The
 * mode comes from PROFILE_STORE_STACK like for the run command: Docker when an engine answers, local processes
 * otherwise.
 */
public final class TestStack {

    public static final String CONFIG = "profile-store.yml";

    /** Longer than a start may take (each service's own bound, and another run's turn): then something hangs. */
    private static final Duration START_BOUND = Duration.ofMinutes(16);
    private static final Duration SCHEMA_CHANGE_BOUND = Duration.ofSeconds(30);
    private static final ReentrantLock STARTING = new ReentrantLock();

    private static volatile Stack stack;
    private static volatile boolean keepRunningAtExit;
    private static RuntimeException failedStart;
    private static Backends backends;

    private TestStack() {
    }

    /**
     * The shared stack, started by the first test that asks. A start that failed is not tried again by every
     * later test class: they fail at once with its cause. A start that hangs past its bound (in a test that
     * timed out, its thread still running) makes the others fail after that bound, not wait for ever.
     */
    public static Stack stack() {
        if (stack != null) {
            return stack;
        }
        try {
            if (!STARTING.tryLock(START_BOUND.toMinutes(), TimeUnit.MINUTES)) {
                throw new IllegalStateException("the shared test stack has been starting for over " + START_BOUND
                        + " in another test; see that test's failure");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the shared test stack", e);
        }
        try {
            if (failedStart != null) {
                throw new IllegalStateException("the shared test stack could not start: " + failedStart.getMessage(),
                        failedStart);
            }
            if (stack == null) {
                try {
                    var settings = StackSettings.fromEnvironment();
                    if (ForkedStacks.fork() > 1 && settings.mode() == StackMode.EXTERNAL) {
                        throw new IllegalStateException("services someone else runs (PROFILE_STORE_STACK=external) are"
                                + " one stack for every fork of the tests, which would see each other's changes: run"
                                + " them in one JVM, mvn verify -Dit.forks=1");
                    }
                    var started = new RecoveringStack(Stack.start(settings), () -> backends().cassandra());
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        if (!keepRunningAtExit) {
                            started.close();
                        }
                    }, "test-stack-shutdown"));
                    stack = started;
                    migrate();
                } catch (RuntimeException e) {
                    stack = null; // started but not migrated: no test may use it
                    failedStart = e;
                    throw e;
                }
            }
            return stack;
        } finally {
            STARTING.unlock();
        }
    }

    /**
     * Leaves the stack's services running when this JVM exits, as a killed run would: the next run joins them
     * warm, and the last run that closes it, or {@code ./run-local stop} with the same PROFILE_STORE_STACK_DIR, stops them.
     */
    public static void keepRunningAtExit() {
        keepRunningAtExit = true;
    }

    /** The schema every test expects, applied once per run (a no-op when it is there already). */
    private static void migrate() {
        var config = configuration();
        try (var backends = Backends.open(config.backends(), new MetricRegistry(), "test-migrate")) {
            MigrateCommand.migrate(config, backends);
        } catch (Exception e) {
            throw new IllegalStateException("migrate failed on the test stack", e);
        }
    }

    private static DataSource asOwner;

    /** Clients of the stack's services, configured like the service's own. */
    public static synchronized Backends backends() {
        if (backends == null) {
            backends = Backends.open(configuration().backends(), new MetricRegistry(), "test");
            Runtime.getRuntime().addShutdownHook(new Thread(backends::close, "test-backends-shutdown"));
        }
        return backends;
    }

    /** A schema change allowed the time one takes on a busy node, not a query's 2 s (SchemaChangesInTestsTest). */
    public static void changeSchema(CqlSession session, String cql) {
        session.execute(SimpleStatement.newInstance(cql).setTimeout(SCHEMA_CHANGE_BOUND));
    }

    public static Endpoints endpoints() {
        return stack().endpoints();
    }

    /**
     * Whether the tests may pause the stack's services here (not services someone else runs), for the tests that
     * freeze one: {@code @EnabledIf("io.profilestore.testing.TestStack#canPause")}.
     */
    public static boolean canPause() {
        return stack().canPause();
    }

    /**
     * PostgreSQL as the owner of the service's tables, for what the service's role may not do (the benchmark's
     * baseline makes tables of its own); the service's role where the stack has no owner of its own.
     */
    public static synchronized DataSource asOwner() {
        if (asOwner == null) {
            var postgres = configuration().postgres;
            asOwner = postgres.hasSeparateOwner() ? ownerPool(postgres) : backends().postgres();
        }
        return asOwner;
    }

    /** A small pool of the owner's logins: the service builds pools of its own role only (and migrate's). */
    private static DataSource ownerPool(PostgresFactory postgres) {
        var config = new HikariConfig();
        config.setPoolName("test-owner");
        config.setJdbcUrl(postgres.url);
        config.setUsername(postgres.migrationUser);
        config.setPassword(postgres.migrationPassword);
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    /** Whether a statement waits for a lock on {@code table} (one held by a test's transaction, say). */
    public static boolean waitsForLock(String table) {
        try (var connection = backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT count(*) FROM pg_locks WHERE relation = ?::regclass AND NOT granted")) {
            statement.setString(1, table);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1) > 0;
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * People's rate limits raised to the platform's: the tests send an operator's or an admin's requests by the
     * hundred, faster than a person would. The limits' own tests set theirs (see the overload with limits).
     */
    static final Map<String, String> PEOPLE_UNLIMITED = peopleUnlimited();

    private static Map<String, String> peopleUnlimited() {
        var paths = new LinkedHashMap<String, String>();
        for (var role : List.of("roles.operator", "roles.admin", "otherRoles")) {
            for (var kind : List.of("reads", "searches", "writes")) {
                paths.put("limits." + role + "." + kind + ".ratePerSecond", "5000");
                paths.put("limits." + role + "." + kind + ".burst", "10000");
            }
        }
        return Map.copyOf(paths);
    }

    /** The same, as the environment variables of the bundled configuration (for instances of their own). */
    public static Map<String, String> peopleUnlimitedEnvironment() {
        var environment = new HashMap<String, String>();
        for (var role : List.of("OPERATOR", "ADMIN", "OTHER")) {
            for (var kind : List.of("READS", "SEARCHES", "WRITES")) {
                environment.put("PROFILE_STORE_LIMITS_" + role + "_" + kind + "_RATE", "5000");
                environment.put("PROFILE_STORE_LIMITS_" + role + "_" + kind + "_BURST", "10000");
            }
        }
        return environment;
    }

    /** For {@code DropwizardAppExtension}: the stack's addresses, and random free ports for the service. */
    public static ConfigOverride[] configOverrides(ConfigOverride... more) {
        return configOverrides(Map.of(), more);
    }

    /**
     * The same with settings of a test's own ({@code limits.roles.operator.reads.burst}, {@code postgres.url}: a path
     * to its value) in place of the stack's or the raised limits: Dropwizard applies overrides in no given order, so
     * one path must never be overridden twice (a test's {@code postgres.url} lost to the stack's in some runs).
     */
    public static ConfigOverride[] configOverrides(Map<String, String> own, ConfigOverride... more) {
        var values = new LinkedHashMap<String, String>(endpoints().configOverrides());
        values.put("auth.apiKeysFile", TestAuth.keysFile().toString());
        values.put("auth.jwt.jwksFile", TestAuth.jwksFile().toString());
        values.put("auth.jwt.issuer", TestAuth.ISSUER);
        values.put("auth.jwt.audience", TestAuth.AUDIENCE);
        values.put("auth.jwt.machineClients", TestAuth.MACHINE_CLIENT);
        values.put("search.numberKeys", TestAuth.NUMBER_KEYS);
        values.putAll(PEOPLE_UNLIMITED);
        values.putAll(own);
        var overrides = new ArrayList<ConfigOverride>();
        overrides.add(ConfigOverride.randomPorts());
        values.forEach((path, value) -> overrides.add(ConfigOverride.config(path, value)));
        overrides.addAll(List.of(more));
        return overrides.toArray(ConfigOverride[]::new);
    }

    public static String configPath() {
        return ResourceHelpers.resourceFilePath(CONFIG);
    }

    /** The service's own configuration file, pointed at the stack. */
    public static ProfileStoreConfiguration configuration() {
        try {
            // the tests' number key, as the service's environment would give it: with auth on, it is required
            var environment = new EnvironmentVariableSubstitutor(false);
            environment.setVariableResolver(name -> "PROFILE_STORE_NUMBER_KEYS".equals(name) ? TestAuth.NUMBER_KEYS
                    : System.getenv(name));
            var config = new YamlConfigurationFactory<>(ProfileStoreConfiguration.class, Validators.newValidator(),
                    Jackson.newObjectMapper(), "profile-store-test")
                    .build(new SubstitutingSourceProvider(new FileOrClasspathConfigurationSourceProvider(),
                            environment), CONFIG);
            var endpoints = endpoints();
            config.cassandra.contactPoints = endpoints.cassandraContactPoints();
            config.cassandra.localDatacenter = endpoints.cassandraDatacenter();
            config.elasticsearch.hosts = List.of(URI.create(endpoints.elasticsearchUrl()));
            config.postgres.url = endpoints.postgresUrl();
            config.postgres.user = endpoints.postgresUser();
            config.postgres.password = endpoints.postgresPassword();
            config.postgres.migrationUser = endpoints.postgresOwner();
            config.postgres.migrationPassword = endpoints.postgresOwnerPassword();
            config.rabbitmq.uri = endpoints.rabbitmqUri();
            return config;
        } catch (Exception e) {
            throw new IllegalStateException("cannot load " + CONFIG, e);
        }
    }
}
