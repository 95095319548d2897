package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code reindex <config>}: builds the next generation of the index from Cassandra and moves the alias to it,
 * while the service goes on serving and writing. Run again after an interruption, it goes on where it stopped.
 */
public class ReindexCommand extends BackendsCommand {

    public ReindexCommand() {
        super("reindex", "Rebuilds the search index from Cassandra and swaps it in without downtime (resumable)",
                new Switch("--keep-old", "keepOld", "keep the previous generation of the index after the swap"));
    }

    @Override
    protected boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) throws Exception {
        var result = wiring(config, backends, metrics).reindexer().run(System.out, namespace.getBoolean("keepOld"), -1);
        System.out.printf("reindex: %s -> %s, %,d profiles copied%n", result.from(), result.to(), result.profiles());
        return true;
    }
}
