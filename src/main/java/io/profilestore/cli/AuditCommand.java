package io.profilestore.cli;

import io.dropwizard.core.cli.ConfiguredCommand;
import io.dropwizard.core.setup.Bootstrap;
import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.AuditLog;
import io.profilestore.auth.Role;
import io.profilestore.config.ProfileStoreConfiguration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import net.sourceforge.argparse4j.inf.Namespace;
import net.sourceforge.argparse4j.inf.Subparser;

/**
 * {@code audit <config> [--actor A] [--pid P] [--from T] [--to T] [--limit N]}: the audit trail, newest first. The
 * trail holds what people searched for, so reading it is recorded too, before anything is printed, as the API's
 * {@code GET /v1/audit} is: by whoever the credential in {@link CommandActor#TOKEN} proves (an admin), with what it
 * asked and the profiles the records it prints name.
 */
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
        CommandActor.Actor actor;
        try {
            actor = CommandActor.of(config.auth, System.getenv(CommandActor.TOKEN), Role.ADMIN, "audit",
                    System.getProperty("user.name"));
        } catch (CommandActor.Refused refused) {
            System.err.println(refused.getMessage());
            System.exit(1);
            return;
        }
        try (var postgres = config.postgres.build(bootstrap.getMetricRegistry(), "profile-store-audit")) {
            var trail = new AuditLog(postgres);
            var records = trail.query(namespace.getString("actor"),
                    namespace.getString("pid") == null ? null : UUID.fromString(namespace.getString("pid")),
                    namespace.getString("from") == null ? null : Instant.parse(namespace.getString("from")),
                    namespace.getString("to") == null ? null : Instant.parse(namespace.getString("to")),
                    null, namespace.getInt("limit"));
            // recorded before anything is printed, with every profile the printed records name
            var shown = records.stream().flatMap(record -> record.pids().stream()).distinct().toList();
            trail.record(new AuditEntry(null, null, actor.name(), actor.kind(), actor.roles(), "audit command",
                    asked(namespace), shown, 200));
            for (var record : records) {
                System.out.printf("%s %s (%s %s) %s %s -> %s, profiles %s%n", record.at(), record.actor(),
                        record.actorKind(), String.join(",", record.roles()), record.action(), record.request(),
                        record.status() == null ? "outcome unknown" : record.status(), record.pids());
            }
            System.out.printf("%d record(s)%n", records.size());
        }
    }

    /** The command's criteria as given, as the API's record holds its query. */
    private static String asked(Namespace namespace) {
        var asked = new ArrayList<String>(List.of("audit"));
        for (String option : List.of("actor", "pid", "from", "to", "limit")) {
            if (namespace.get(option) != null) {
                asked.add("--" + option + " " + namespace.get(option));
            }
        }
        return String.join(" ", asked);
    }
}
