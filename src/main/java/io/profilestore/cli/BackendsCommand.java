package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.jackson.Jackson;
import io.profilestore.api.JsonFormat;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.wiring.Wiring;
import java.util.List;
import net.sourceforge.argparse4j.impl.Arguments;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * A command that works on the backing services: it opens them as the configuration says (the pools named
 * {@code profile-store-<command>}), hands them to {@link #run(Backends, Namespace, ProfileStoreConfiguration,
 * MetricRegistry)} and closes them. It exits 1 when the command reports that what it checks is still wrong, for a
 * scheduler or a script to see. Its options are switches, off unless given.
 */
abstract class BackendsCommand extends ConfiguredCommand<ProfileStoreConfiguration> {

    /** An option without a value: {@code flag} given, the namespace's {@code dest} is true. */
    protected record Switch(String flag, String dest, String help) {
    }

    private final List<Switch> switches;

    protected BackendsCommand(String name, String description, Switch... switches) {
        super(name, description);
        this.switches = List.of(switches);
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        for (var option : switches) {
            subparser.addArgument(option.flag()).action(Arguments.storeTrue()).dest(option.dest()).help(option.help());
        }
    }

    @Override
    protected final void run(Bootstrap<ProfileStoreConfiguration> bootstrap, Namespace namespace,
            ProfileStoreConfiguration config) throws Exception {
        if (!mayStart(namespace, config)) {
            System.exit(1);
        }
        var metrics = bootstrap.getMetricRegistry();
        boolean settled;
        try (var backends = Backends.open(config.backends(), metrics, "profile-store-" + getName())) {
            settled = run(backends, namespace, config, metrics);
        }
        if (!settled) {
            System.exit(1);
        }
    }

    /**
     * Whether the command may run at all, asked before any backing service is opened: false, it has said why (on
     * the standard error) and exits 1.
     */
    protected boolean mayStart(Namespace namespace, ProfileStoreConfiguration config) {
        return true;
    }

    /** The service's one wiring, over the command's backends, with the API's JSON. */
    protected static Wiring wiring(ProfileStoreConfiguration config, Backends backends, MetricRegistry metrics) {
        return new Wiring(config, backends, metrics, JsonFormat.configure(Jackson.newObjectMapper()));
    }

    /** @return false when what the command checks is still wrong after it (the process then exits 1) */
    protected abstract boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) throws Exception;
}
