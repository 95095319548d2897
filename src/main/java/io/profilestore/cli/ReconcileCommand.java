package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code reconcile <config>}: compares Cassandra and the index, repairs what differs (unless --dry-run). Exits 1 when
 * something is still wrong after it: drift it did not repair (any drift, with --dry-run) or unreadable profiles.
 */
public class ReconcileCommand extends BackendsCommand {

    public ReconcileCommand() {
        super("reconcile", "Compares Cassandra and the search index (pids, versions) and repairs the drift",
                new Switch("--dry-run", "dryRun", "report the drift without repairing it"));
    }

    /** @return false when the index still differs from Cassandra */
    @Override
    protected boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) throws Exception {
        var out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        var drift = wiring(config, backends, metrics).reconciler(Duration.ofSeconds(5)).run(out, !namespace.getBoolean("dryRun"));
        if (drift.unrepaired() > 0) {
            out.printf("reconcile: %d profile(s) still differ or cannot be indexed%n", drift.unrepaired());
            return false;
        }
        return true;
    }
}
