package io.profilestore.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.backends.Backends;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/** {@code reconcile <config>}: compares Cassandra and the index, repairs what differs (unless --dry-run). */
public class ReconcileCommand extends ConfiguredCommand<ProfileStoreConfiguration> {

    public ReconcileCommand() {
        super("reconcile", "Compares Cassandra and the search index (pids, versions) and repairs the drift");
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--dry-run").action(Arguments.storeTrue()).dest("dryRun")
                .help("report the drift without repairing it");
    }

    @Override
    protected void run(Bootstrap<ProfileStoreConfiguration> bootstrap, Namespace namespace,
            ProfileStoreConfiguration config) throws Exception {
        try (var backends = Backends.open(config, bootstrap.getMetricRegistry(), "profile-store-reconcile")) {
            var parts = IndexCommands.parts(config, backends, bootstrap.getMetricRegistry(), IndexCommands.json());
            var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            IndexCommands.reconciler(parts, Duration.ofSeconds(5)).run(out, !namespace.getBoolean("dryRun"));
        }
    }
}
