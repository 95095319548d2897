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

/**
 * {@code reconcile <config>}: compares Cassandra and the index, repairs what differs (unless --dry-run). Exits 1 when
 * something is still wrong after it: drift it did not repair (any drift, with --dry-run) or unreadable profiles.
 */
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
        int unrepaired;
        try (var backends = Backends.open(config, bootstrap.getMetricRegistry(), "profile-store-reconcile")) {
            var parts = IndexCommands.parts(config, backends, bootstrap.getMetricRegistry(), IndexCommands.json());
            var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
            var drift = IndexCommands.reconciler(parts, Duration.ofSeconds(5)).run(out, !namespace.getBoolean("dryRun"));
            unrepaired = drift.unrepaired();
            if (unrepaired > 0) {
                out.printf("reconcile: %d profile(s) still differ or cannot be indexed%n", unrepaired);
            }
        }
        if (unrepaired > 0) {
            System.exit(1); // for a scheduler or a script: the index still differs from Cassandra
        }
    }
}
