package io.profilestore.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.audit.AuditLog;
import java.time.Instant;
import java.util.UUID;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/** {@code audit <config> [--actor A] [--pid P] [--from T] [--to T] [--limit N]}: the audit trail, newest first. */
public class AuditCommand extends ConfiguredCommand<ProfileStoreConfiguration> {

    public AuditCommand() {
        super("audit", "Prints the audit trail: who looked at or changed which profiles, when");
    }

    @Override
    public void configure(Subparser subparser) {
        super.configure(subparser);
        subparser.addArgument("--actor").help("an API key's name or a JWT's subject");
        subparser.addArgument("--pid").help("a profile");
        subparser.addArgument("--from").help("an instant, e.g. 2026-11-30T00:00:00Z");
        subparser.addArgument("--to").help("an instant, excluded");
        subparser.addArgument("--limit").type(Integer.class).setDefault(100);
    }

    @Override
    protected void run(Bootstrap<ProfileStoreConfiguration> bootstrap, Namespace namespace,
            ProfileStoreConfiguration config) {
        try (var postgres = config.postgres.build(bootstrap.getMetricRegistry(), "profile-store-audit")) {
            var records = new AuditLog(postgres).query(namespace.getString("actor"),
                    namespace.getString("pid") == null ? null : UUID.fromString(namespace.getString("pid")),
                    namespace.getString("from") == null ? null : Instant.parse(namespace.getString("from")),
                    namespace.getString("to") == null ? null : Instant.parse(namespace.getString("to")),
                    null, namespace.getInt("limit"));
            for (var record : records) {
                System.out.printf("%s %s (%s %s) %s %s -> %s, profiles %s%n", record.at(), record.actor(),
                        record.actorKind(), String.join(",", record.roles()), record.action(), record.request(),
                        record.status() == null ? "outcome unknown" : record.status(), record.pids());
            }
            System.out.printf("%d record(s)%n", records.size());
        }
    }
}
