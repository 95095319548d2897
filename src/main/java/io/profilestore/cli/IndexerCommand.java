package io.profilestore.cli;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.ServerCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.config.ProfileStoreConfiguration;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code indexer <config>}: the indexer alone, as a server of its own so that it scales apart from the API and
 * still answers health checks and metrics on its admin port.
 */
public class IndexerCommand extends ServerCommand<ProfileStoreConfiguration> {

    public IndexerCommand(Application<ProfileStoreConfiguration> application) {
        super(application, "indexer", "Runs the indexer: change events from RabbitMQ into Elasticsearch");
    }

    @Override
    protected void run(Bootstrap<ProfileStoreConfiguration> bootstrap, Namespace namespace,
            ProfileStoreConfiguration configuration) throws Exception {
        configuration.role = ProfileStoreConfiguration.Role.INDEXER;
        super.run(bootstrap, namespace, configuration);
    }
}
