package io.profilestore;

import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.AutoCloseableManager;
import io.profilestore.admin.AdminTasks;
import io.profilestore.api.JsonFormat;
import io.profilestore.audit.AuditFilter;
import io.profilestore.audit.AuditGroupWriter;
import io.profilestore.audit.AuditOutcomeWriter;
import io.profilestore.audit.AuditRetention;
import io.profilestore.audit.HeadRefusal;
import io.profilestore.audit.MachineLookUpWriter;
import io.profilestore.audit.RequestIds;
import io.profilestore.auth.BearerAuthenticator;
import io.profilestore.auth.Security;
import io.profilestore.backends.Backends;
import io.profilestore.change.WritePathProbe;
import io.profilestore.cli.ApiKeyCommand;
import io.profilestore.cli.AuditCommand;
import io.profilestore.cli.BundledDefaultConfigurationFactoryFactory;
import io.profilestore.cli.CheckTablesCommand;
import io.profilestore.cli.FileOrClasspathConfigurationSourceProvider;
import io.profilestore.cli.ImportCommand;
import io.profilestore.cli.IndexerCommand;
import io.profilestore.cli.MigrateCommand;
import io.profilestore.cli.ReconcileCommand;
import io.profilestore.cli.ReindexCommand;
import io.profilestore.cli.SecretsSubstitutor;
import io.profilestore.config.KeyStoreWatch;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.console.Console;
import io.profilestore.health.AuditWritersHealthCheck;
import io.profilestore.health.CassandraHealthCheck;
import io.profilestore.health.ElasticsearchHealthCheck;
import io.profilestore.health.ChangeStreamHealthCheck;
import io.profilestore.health.IndexerHealthCheck;
import io.profilestore.health.PostgresHealthCheck;
import io.profilestore.health.PrometheusEndpoint;
import io.profilestore.health.RabbitMqHealthCheck;
import io.profilestore.health.ReadinessEndpoint;
import io.profilestore.health.TerseHealthCheck;
import io.profilestore.indexer.ReconcileTask;
import io.profilestore.limits.CallerBuckets;
import io.profilestore.limits.RateLimitFeature;
import io.profilestore.limits.RateLimitMetrics;
import io.profilestore.resources.ApiProviders;
import io.profilestore.resources.AsyncApiResource;
import io.profilestore.resources.AuditResource;
import io.profilestore.resources.CallerResource;
import io.profilestore.resources.LoggedPathFilter;
import io.profilestore.resources.MatchResource;
import io.profilestore.resources.OpenApiResource;
import io.profilestore.resources.ProfileHistoryResource;
import io.profilestore.resources.ProfileResource;
import io.profilestore.resources.RequestMetrics;
import io.profilestore.resources.SearchResource;
import io.profilestore.resources.UnreadBodyFilter;
import io.profilestore.resources.UserResource;
import io.profilestore.resources.problems.ProblemErrorHandler;
import io.profilestore.search.CursorSeal;
import io.profilestore.search.MatchService;
import io.profilestore.search.NameNormalizer;
import io.profilestore.search.SearchService;
import io.profilestore.tablecheck.TableCheckSchedule;
import io.profilestore.tablecheck.TableCheckTask;
import io.profilestore.wiring.Wiring;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import jakarta.servlet.DispatcherType;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * The profile store: {@code server <config>} serves the API, {@code migrate <config>} applies the schema,
 * {@code check <config>} validates a configuration. The configuration is a file, or a resource of the jar such as
 * {@code profile-store.yml} (also what a command given none reads), with {@code ${ENV_VAR:-default}} substitution.
 */
public class ProfileStoreApplication extends Application<ProfileStoreConfiguration> {

    public static void main(String[] args) throws Exception {
        new ProfileStoreApplication().run(args);
    }

    @Override
    public String getName() {
        return "profile-store";
    }

    @Override
    public void initialize(Bootstrap<ProfileStoreConfiguration> bootstrap) {
        bootstrap.setConfigurationSourceProvider(new SubstitutingSourceProvider(
                new FileOrClasspathConfigurationSourceProvider(),
                new SecretsSubstitutor()));
        bootstrap.setConfigurationFactoryFactory(new BundledDefaultConfigurationFactoryFactory<>(
                new SubstitutingSourceProvider(new ResourceConfigurationSourceProvider(), new SecretsSubstitutor())));
        bootstrap.addCommand(new MigrateCommand());
        bootstrap.addCommand(new IndexerCommand(this));
        bootstrap.addCommand(new ReindexCommand());
        bootstrap.addCommand(new ReconcileCommand());
        bootstrap.addCommand(new CheckTablesCommand());
        bootstrap.addCommand(new ApiKeyCommand());
        bootstrap.addCommand(new AuditCommand());
        bootstrap.addCommand(new ImportCommand());
    }

    /** Hook for tests that hold a change at one of its steps. */
    protected WritePathProbe writePathProbe() {
        return WritePathProbe.NONE;
    }

    @Override
    public void run(ProfileStoreConfiguration config, Environment environment) {
        var backends = Backends.open(config.backends(), environment.metrics(), "profile-store");
        environment.lifecycle().manage(new AutoCloseableManager(backends));
        JsonFormat.configure(environment.getObjectMapper());
        var wiring = new Wiring(config, backends, environment.metrics(), environment.getObjectMapper());
        // metrics with labels, which Dropwizard's cannot have, served at /prometheus beside Dropwizard's
        var labelledMetrics = new PrometheusRegistry();

        var authenticator = Security.authenticator(environment, config.auth);
        installOnBothPorts(config, environment, backends, authenticator);
        if (config.role == ProfileStoreConfiguration.Role.API) {
            serveTheApi(config, environment, wiring, backends, labelledMetrics, authenticator);
        }
        if (config.role == ProfileStoreConfiguration.Role.INDEXER || config.indexer.inProcess) {
            var indexer = wiring.indexer();
            environment.lifecycle().manage(indexer);
            environment.healthChecks().register("indexer", new TerseHealthCheck(new IndexerHealthCheck(indexer)));
            // the change stream runs beside the indexer: it reads the same messages, and one process at a time publishes
            var changeStream = wiring.changeStream();
            environment.lifecycle().manage(changeStream);
            environment.healthChecks().register("change-stream",
                    new TerseHealthCheck(new ChangeStreamHealthCheck(changeStream)));
        }
        environment.admin().addTask(new ReconcileTask(wiring.reconciler(Duration.ofSeconds(5))));
        checkTheBackends(config, environment, backends);
        PrometheusEndpoint.install(environment, labelledMetrics);
    }

    /** What both roles serve: the admin port's security and tasks, the request log's paths, errors as problems. */
    private static void installOnBothPorts(ProfileStoreConfiguration config, Environment environment, Backends backends,
            BearerAuthenticator authenticator) {
        Security.installOnAdminPort(environment, config.auth, authenticator);
        KeyStoreWatch.install(environment, config);
        AdminTasks.install(environment, backends.postgres());
        // the request log's path, without what a URI may carry that must not be logged, on both ports
        for (var context : List.of(environment.servlets(), environment.admin())) {
            context.addFilter("logged-path", new LoggedPathFilter())
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        }
        // errors Jetty answers itself are problems too, on either role's ports
        environment.getApplicationContext().setErrorHandler(new ProblemErrorHandler.ForServlets());
        environment.lifecycle().addServerLifecycleListener(server -> server.setErrorHandler(new ProblemErrorHandler()));
    }

    /** The API role: security, limits and the audit trail around the resources, the write path and its jobs. */
    private void serveTheApi(ProfileStoreConfiguration config, Environment environment, Wiring wiring,
            Backends backends, PrometheusRegistry labelledMetrics, BearerAuthenticator authenticator) {
        var jersey = environment.jersey();
        Security.install(environment, config.auth, authenticator);
        jersey.register(new RateLimitFeature(new CallerBuckets(config.limits),
                new RateLimitMetrics(labelledMetrics, config.limits.labelledSubjects)));
        // rate, latency and problems per route, for the dashboard (Dropwizard's metrics have no labels)
        jersey.register(new RequestMetrics(labelledMetrics));
        auditEveryRequest(config, environment, wiring, backends);

        var relay = wiring.relay();
        // a change recorded and written here is relayed at once by this pod's relay, not at its next poll
        var changes = wiring.changes(writePathProbe(), relay::wake);
        var users = wiring.userService(changes);
        var tableCheck = wiring.tableCheck(changes, users);
        environment.lifecycle().manage(wiring.recovery(users));
        environment.admin().addTask(new TableCheckTask(tableCheck, wiring.oneAtATime()));
        environment.lifecycle().manage(new TableCheckSchedule(tableCheck, wiring.oneAtATime(),
                config.users.checkTablesEvery.toJavaDuration()));
        environment.lifecycle().manage(wiring.unsettledSweep(changes));
        environment.lifecycle().manage(new AuditRetention(backends.postgres(), environment.metrics()));
        environment.lifecycle().manage(relay);

        var names = NameNormalizer.standard();
        var cursors = CursorSeal.of(config.search);
        var history = wiring.profileHistory(cursors);
        var profiles = wiring.profileService(changes);
        jersey.register(new ProfileResource(profiles, history));
        jersey.register(new ProfileHistoryResource(history, profiles));
        jersey.register(new UserResource(users, wiring.userHistory()));
        jersey.register(new SearchResource(new SearchService(wiring.index(), wiring.profiles(), names, cursors,
                wiring.numberKeys())));
        jersey.register(new MatchResource(new MatchService(wiring.index(), wiring.profiles(), names,
                environment.getObjectMapper(), wiring.numberKeys())));
        jersey.register(new AuditResource(wiring.audit()));
        jersey.register(new OpenApiResource());
        jersey.register(new AsyncApiResource());
        jersey.register(new CallerResource());
        if (config.console.enabled) {
            Console.install(environment, config.console, config.auth);
        }
        ApiProviders.requestChecks().forEach(jersey::register);
        environment.servlets().addFilter("unread-body", new UnreadBodyFilter())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        ApiProviders.problemMappers().forEach(jersey::register);
    }

    /** Every request gets an id and an audit record: look-ups grouped, machines' look-ups apart, outcomes later. */
    private static void auditEveryRequest(ProfileStoreConfiguration config, Environment environment, Wiring wiring,
            Backends backends) {
        var lookUps = new AuditGroupWriter(backends.postgres(), config.audit, environment.metrics());
        environment.lifecycle().manage(lookUps);
        var machineLookUps = new MachineLookUpWriter(backends.postgres(), config.audit, environment.metrics());
        environment.lifecycle().manage(machineLookUps);
        var outcomes = new AuditOutcomeWriter(wiring.audit(), config.audit, environment.metrics());
        environment.lifecycle().manage(outcomes);
        environment.healthChecks().register("audit",
                new TerseHealthCheck(new AuditWritersHealthCheck(List.of(lookUps, machineLookUps, outcomes))));
        // every request has an id, which its answer, its audit record and the rows its changes write carry
        environment.jersey().register(new RequestIds());
        environment.jersey().register(new AuditFilter(lookUps, machineLookUps, outcomes));
        environment.jersey().register(new HeadRefusal());
    }

    /** One health check per backing service; readiness asks Cassandra's quorum alone. */
    private static void checkTheBackends(ProfileStoreConfiguration config, Environment environment, Backends backends) {
        var cassandra = new CassandraHealthCheck(backends.cassandra(), config.cassandra.keyspace);
        environment.healthChecks().register("cassandra", new TerseHealthCheck(cassandra));
        environment.metrics().gauge("cassandra.quorum-met", () -> () -> {
            var quorum = cassandra.quorum();
            return quorum == null || quorum.met() ? 1 : 0;
        });
        environment.healthChecks().register("elasticsearch",
                new TerseHealthCheck(new ElasticsearchHealthCheck(backends.elasticsearch())));
        environment.healthChecks().register("postgres", new TerseHealthCheck(new PostgresHealthCheck(backends.postgres())));
        environment.healthChecks().register("rabbitmq", new TerseHealthCheck(new RabbitMqHealthCheck(backends.rabbitmq())));
        ReadinessEndpoint.install(environment, Map.of("cassandra", new TerseHealthCheck(cassandra.readiness())));
    }
}
