package io.profilestore;

import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.AutoCloseableManager;
import io.profilestore.backends.Backends;
import io.profilestore.cli.FileOrClasspathConfigurationSourceProvider;
import io.profilestore.cli.MigrateCommand;
import io.profilestore.health.CassandraHealthCheck;
import io.profilestore.health.ElasticsearchHealthCheck;
import io.profilestore.health.PostgresHealthCheck;
import io.profilestore.health.RabbitMqHealthCheck;

/**
 * The profile store: {@code server <config>} serves the API, {@code migrate <config>} applies the schema,
 * {@code check <config>} validates a configuration. The configuration is a file, or a resource of the jar such as
 * {@code profile-store.yml}, with {@code ${ENV_VAR:-default}} substitution.
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
                new EnvironmentVariableSubstitutor(false)));
        bootstrap.addCommand(new MigrateCommand());
    }

    @Override
    public void run(ProfileStoreConfiguration config, Environment environment) {
        var backends = Backends.open(config, environment.metrics(), "profile-store");
        environment.lifecycle().manage(new AutoCloseableManager(backends));

        environment.healthChecks().register("cassandra", new CassandraHealthCheck(backends.cassandra()));
        environment.healthChecks().register("elasticsearch", new ElasticsearchHealthCheck(backends.elasticsearch()));
        environment.healthChecks().register("postgres", new PostgresHealthCheck(backends.postgres()));
        environment.healthChecks().register("rabbitmq", new RabbitMqHealthCheck(backends.rabbitmq()));
    }
}
