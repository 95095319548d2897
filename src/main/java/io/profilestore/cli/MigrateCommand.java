package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.events.ChangeStreamTopology;
import io.profilestore.events.EventTopology;
import io.profilestore.schema.AuditTrailOwner;
import io.profilestore.schema.CassandraSchema;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.schema.PostgresSchema;
import java.io.PrintStream;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * {@code migrate <config>}: brings Cassandra, PostgreSQL and Elasticsearch to the schema of this build. Each part
 * applies only what is missing, so running it again changes nothing; it is safe to run before every start. It
 * exits 1 when the service's own PostgreSQL role owns the audit trail's tables ({@link AuditTrailOwner}).
 */
public class MigrateCommand extends BackendsCommand {

    public MigrateCommand() {
        super("migrate", "Applies the Cassandra, PostgreSQL and Elasticsearch schema (idempotent)");
    }

    @Override
    protected boolean run(Backends backends, Namespace namespace, ProfileStoreConfiguration config,
            MetricRegistry metrics) throws Exception {
        try {
            report(System.out, migrate(config, backends));
        } catch (AuditTrailOwner.OwnedByTheService owned) {
            System.err.println(owned.getMessage());
            return false;
        }
        return true;
    }

    public record Report(PostgresSchema.Result postgres, CassandraSchema.Result cassandra,
            ElasticsearchSchema.Result elasticsearch) {
    }

    public static Report migrate(ProfileStoreConfiguration config, Backends backends) throws Exception {
        PostgresSchema.Result postgres;
        var settings = config.postgres;
        try (var asOwner = settings.buildForMigration(new MetricRegistry())) {
            // before (a trail of an older database, which the owner could not even migrate) and after (tables this
            // run made as the service's role, without an owner of its own)
            String owner = settings.hasSeparateOwner() ? settings.migrationUser : null;
            AuditTrailOwner.check(asOwner, settings.user, owner);
            postgres = PostgresSchema.migrate(asOwner, settings.user, settings.hasSeparateOwner(),
                    config.audit.retention.toJavaDuration());
            AuditTrailOwner.check(asOwner, settings.user, owner);
        }
        var cassandra = CassandraSchema.migrate(config.cassandra);
        var elasticsearch = ElasticsearchSchema.migrate(backends.elasticsearch(), config.elasticsearch);
        try (var channel = backends.rabbitmq().createChannel()) {
            EventTopology.declare(channel);
        }
        var stream = config.changeStream;
        ChangeStreamTopology.declare(backends.rabbitmq(), stream.queue, stream.maxAge, stream.maxBytes);
        return new Report(postgres, cassandra, elasticsearch);
    }

    static void report(PrintStream out, Report report) {
        var pg = report.postgres();
        out.printf("postgres: %d migration(s) applied, schema version %s -> %s%n",
                pg.applied(), pg.versionBefore(), pg.versionAfter());
        var cql = report.cassandra();
        out.printf("cassandra: keyspace %s %s, %d migration(s) applied, version %d -> %d%n", cql.keyspace(),
                cql.keyspaceCreated() ? "created" : "exists", cql.applied(), cql.versionBefore(), cql.versionAfter());
        if (!cql.replicationNote().isEmpty()) {
            out.println("cassandra: WARNING " + cql.replicationNote());
        }
        var es = report.elasticsearch();
        out.printf("elasticsearch: alias %s -> %s: %s%n", es.alias(), es.index(), switch (es.outcome()) {
            case CREATED -> "index created with its alias";
            case ALIAS_ADDED -> "alias added to the existing index";
            case MAPPING_EXTENDED -> "new fields added to the mapping; documents indexed before get them when indexed "
                    + "again (a change, or `reindex`)";
            case MAPPING_DIFFERS -> "WARNING the mapping of this build differs in a way Elasticsearch cannot change in "
                    + "place (" + es.refusal() + "); the service goes on with the index as it is; run `reindex` to "
                    + "build a new generation with this mapping";
            case UNCHANGED -> "up to date";
        });
        if (es.refreshIntervalChange() != null) {
            out.printf("elasticsearch: refresh interval %s (elasticsearch.index.refreshInterval)%n",
                    es.refreshIntervalChange());
        }
        out.printf("rabbitmq: exchange %s, queue %s, dead letters in %s%n", EventTopology.EXCHANGE,
                EventTopology.QUEUE, EventTopology.DEAD_QUEUE);
    }
}
