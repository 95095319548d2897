package io.profilestore;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dropwizard.configuration.ResourceConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.AutoCloseableManager;
import io.profilestore.admin.AdminTasks;
import io.profilestore.audit.AuditFilter;
import io.profilestore.audit.AuditGroupWriter;
import io.profilestore.audit.AuditLog;
import io.profilestore.audit.AuditOutcomeWriter;
import io.profilestore.audit.HeadRefusal;
import io.profilestore.audit.MachineSearchWriter;
import io.profilestore.audit.RequestIds;
import io.profilestore.auth.Security;
import io.profilestore.backends.Backends;
import io.profilestore.change.UnsettledSweep;
import io.profilestore.change.WritePathProbe;
import io.profilestore.cli.ApiKeyCommand;
import io.profilestore.cli.BundledDefaultConfigurationFactoryFactory;
import io.profilestore.cli.CheckTablesCommand;
import io.profilestore.cli.AuditCommand;
import io.profilestore.cli.CheckTablesCommand;
import io.profilestore.cli.FileOrClasspathConfigurationSourceProvider;
import io.profilestore.cli.ImportCommand;
import io.profilestore.cli.IndexerCommand;
import io.profilestore.cli.MigrateCommand;
import io.profilestore.cli.ReconcileCommand;
import io.profilestore.cli.ReindexCommand;
import io.profilestore.cli.SecretsSubstitutor;
import io.profilestore.console.Console;
import io.profilestore.core.Documents;
import io.profilestore.core.ProfileService;
import io.profilestore.core.TableCheck;
import io.profilestore.core.TableCheckSchedule;
import io.profilestore.core.TableCheckTask;
import io.profilestore.core.UserHistory;
import io.profilestore.core.UserOperationRecovery;
import io.profilestore.core.UserService;
import io.profilestore.core.search.CursorSeal;
import io.profilestore.core.search.MatchService;
import io.profilestore.core.search.NameNormalizer;
import io.profilestore.core.search.SearchService;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.events.OutboxRelay;
import io.profilestore.health.AuditWritersHealthCheck;
import io.profilestore.health.CassandraHealthCheck;
import io.profilestore.health.ElasticsearchHealthCheck;
import io.profilestore.health.IndexerHealthCheck;
import io.profilestore.health.PostgresHealthCheck;
import io.profilestore.health.PrometheusEndpoint;
import io.profilestore.health.RabbitMqHealthCheck;
import io.profilestore.health.ReadinessEndpoint;
import io.profilestore.health.TerseHealthCheck;
import io.profilestore.indexer.Indexer;
import io.profilestore.indexer.ProfileDocuments;
import io.profilestore.indexer.ReconcileTask;
import io.profilestore.indexer.Reconciler;
import io.profilestore.limits.CallerBuckets;
import io.profilestore.limits.RateLimitFeature;
import io.profilestore.limits.RateLimitMetrics;
import io.profilestore.postgres.ExclusiveRun;
import io.profilestore.postgres.PostgresUserJournal;
import io.profilestore.postgres.PostgresUserJournalHistory;
import io.profilestore.resources.AuditResource;
import io.profilestore.resources.BodyLimitFeature;
import io.profilestore.resources.CallerResource;
import io.profilestore.resources.ConditionalWriteChecks;
import io.profilestore.resources.LoggedPathFilter;
import io.profilestore.resources.MatchResource;
import io.profilestore.resources.OpenApiResource;
import io.profilestore.resources.ProfileResource;
import io.profilestore.resources.RequestMetrics;
import io.profilestore.resources.SearchResource;
import io.profilestore.resources.UnreadBodyFilter;
import io.profilestore.resources.UserResource;
import io.profilestore.resources.problems.ConstraintViolationMapper;
import io.profilestore.resources.problems.DomainExceptionMapper;
import io.profilestore.resources.problems.JsonExceptionMapper;
import io.profilestore.resources.problems.ProblemErrorHandler;
import io.profilestore.resources.problems.ProblemExceptionMapper;
import io.profilestore.resources.problems.UnexpectedExceptionMapper;
import io.profilestore.resources.problems.WebApplicationExceptionMapper;
import io.profilestore.schema.IndexAliases;
import io.profilestore.wiring.StoreAdapters;
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

    /** Deepest nesting a request body may have: profiles are records, not trees of arbitrary depth. */
    static final int MAX_JSON_DEPTH = 64;

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

    /**
     * Request bodies as the profile store needs them: unknown fields and duplicate keys refused, numbers kept
     * exact (a document's 0.1 stays 0.1, its 20-digit integers stay whole), nesting bounded.
     */
    public static ObjectMapper configureJson(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(MAX_JSON_DEPTH).build());
        return mapper;
    }

    /** Hook for tests that hold a change at one of its steps. */
    protected WritePathProbe writePathProbe() {
        return WritePathProbe.NONE;
    }

    @Override
    public void run(ProfileStoreConfiguration config, Environment environment) {
        var backends = Backends.open(config.backends(), environment.metrics(), "profile-store");
        environment.lifecycle().manage(new AutoCloseableManager(backends));
        configureJson(environment.getObjectMapper());
        var json = environment.getObjectMapper();

        var settings = config.profiles;
        var stores = new StoreAdapters(config, backends, environment.metrics());
        var dao = stores.profiles();
        var index = new SearchIndex(backends.elasticsearch(), config.elasticsearch.indexAlias);
        var names = NameNormalizer.standard();

        Security.installOnAdminPort(environment, config.auth);
        AdminTasks.install(environment, backends.postgres());
        // the request log's path, without what a URI may carry that must not be logged, on both ports
        for (var context : List.of(environment.servlets(), environment.admin())) {
            context.addFilter("logged-path", new LoggedPathFilter())
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        }
        // errors Jetty answers itself are problems too, on either role's ports
        environment.getApplicationContext().setErrorHandler(new ProblemErrorHandler.ForServlets());
        environment.lifecycle().addServerLifecycleListener(server -> server.setErrorHandler(new ProblemErrorHandler()));
        // metrics with labels, which Dropwizard's cannot have, served at /prometheus beside Dropwizard's
        var labelledMetrics = new PrometheusRegistry();
        if (config.role == ProfileStoreConfiguration.Role.API) {
            Security.install(environment, config.auth);
            environment.jersey().register(new RateLimitFeature(new CallerBuckets(config.limits),
                    new RateLimitMetrics(labelledMetrics, config.limits.labelledSubjects)));
            // rate, latency and problems per route, for the dashboard (Dropwizard's metrics have no labels)
            environment.jersey().register(new RequestMetrics(labelledMetrics));
            var audit = new AuditLog(backends.postgres(), environment.metrics());
            var lookUps = new AuditGroupWriter(backends.postgres(), config.audit, environment.metrics());
            environment.lifecycle().manage(lookUps);
            var machineSearches = new MachineSearchWriter(backends.postgres(), config.audit, environment.metrics());
            environment.lifecycle().manage(machineSearches);
            var outcomes = new AuditOutcomeWriter(audit, config.audit, environment.metrics());
            environment.lifecycle().manage(outcomes);
            environment.healthChecks().register("audit",
                    new TerseHealthCheck(new AuditWritersHealthCheck(List.of(lookUps, machineSearches, outcomes))));
            // every request has an id, which its answer, its audit record and the rows its changes write carry
            environment.jersey().register(new RequestIds());
            environment.jersey().register(new AuditFilter(lookUps, machineSearches, outcomes));
            environment.jersey().register(new HeadRefusal());
            environment.jersey().register(new AuditResource(audit));
            var documents = new Documents(json, settings.maxDocumentBytes);
            var relay = new OutboxRelay(stores.outbox(), backends.rabbitmq(), json,
                    config.indexer.relayInterval.toJavaDuration(),
                    config.indexer.relayLinger.toJavaDuration(),
                    config.indexer.outboxRetention.toJavaDuration(), environment.metrics());
            // a change recorded and written here is relayed at once by this pod's relay, not at its next poll
            var changes = stores.changeRunner(writePathProbe(), relay::wake);
            var profiles = new ProfileService(dao, changes, documents, settings.maxBatchSize,
                    config.users.maxProfilesPerUser);
            var journal = new PostgresUserJournal(backends.postgres());
            var users = new UserService(dao, changes, journal, config.users);
            environment.lifecycle().manage(new UserOperationRecovery(journal, users,
                    config.users.recoveryDelay.toJavaDuration(), Duration.ofSeconds(1)));
            var history = new PostgresUserJournalHistory(backends.postgres());
            var tableCheck = new TableCheck(dao, changes, users, history, config.users);
            var oneAtATime = new ExclusiveRun(backends.postgres());
            environment.admin().addTask(new TableCheckTask(tableCheck, oneAtATime));
            environment.lifecycle().manage(new TableCheckSchedule(tableCheck, oneAtATime,
                    config.users.checkTablesEvery.toJavaDuration()));
            environment.lifecycle().manage(new UnsettledSweep(changes, stores.unsettled(), oneAtATime));
            var jersey = environment.jersey();
            jersey.register(new ProfileResource(profiles));
            jersey.register(new UserResource(users, new UserHistory(dao, journal, history)));
            jersey.register(new SearchResource(new SearchService(index, dao, names, CursorSeal.of(config.search))));
            jersey.register(new MatchResource(new MatchService(index, dao, names, json)));
            jersey.register(new OpenApiResource());
            jersey.register(new CallerResource());
            if (config.console.enabled) {
                Console.install(environment, config.console, config.auth.enabled);
            }
            jersey.register(new BodyLimitFeature());
            jersey.register(new ConditionalWriteChecks());
            environment.servlets().addFilter("unread-body", new UnreadBodyFilter())
                    .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
            jersey.register(new ProblemExceptionMapper());
            jersey.register(new ConstraintViolationMapper());
            jersey.register(new DomainExceptionMapper());
            jersey.register(new JsonExceptionMapper());
            jersey.register(new WebApplicationExceptionMapper());
            jersey.register(new UnexpectedExceptionMapper());
            environment.lifecycle().manage(relay);
        }
        if (config.role == ProfileStoreConfiguration.Role.INDEXER || config.indexer.inProcess) {
            var indexer = new Indexer(backends.rabbitmq(), new ProfileDocuments(dao, names, json), index, json,
                    config.indexer, environment.metrics());
            environment.lifecycle().manage(indexer);
            environment.healthChecks().register("indexer", new TerseHealthCheck(new IndexerHealthCheck(indexer)));
        }

        environment.admin().addTask(new ReconcileTask(new Reconciler(dao, new ProfileDocuments(dao, names, json), index,
                new IndexAliases(backends.elasticsearch(), config.elasticsearch.indexAlias),
                Duration.ofSeconds(5))));

        var cassandra = new CassandraHealthCheck(backends.cassandra(), config.cassandra.keyspace);
        environment.healthChecks().register("cassandra", new TerseHealthCheck(cassandra));
        environment.metrics().gauge("cassandra.quorum-met", () -> () -> {
            var quorum = cassandra.quorum();
            return quorum == null || quorum.met() ? 1 : 0;
        });
        environment.healthChecks().register("elasticsearch", new TerseHealthCheck(new ElasticsearchHealthCheck(backends.elasticsearch())));
        environment.healthChecks().register("postgres", new TerseHealthCheck(new PostgresHealthCheck(backends.postgres())));
        environment.healthChecks().register("rabbitmq", new TerseHealthCheck(new RabbitMqHealthCheck(backends.rabbitmq())));
        PrometheusEndpoint.install(environment, labelledMetrics);
        ReadinessEndpoint.install(environment, Map.of("cassandra", new TerseHealthCheck(cassandra.readiness())));
    }
}
