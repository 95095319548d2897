package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.indices.GetIndicesSettingsRequest;
import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.profilestore.backends.Backends;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code migrate} on a keyspace and an index alias of its own: the first run creates everything, the second changes
 * nothing, and the report says so. A keyspace takes long to make, so the cases that need none run elsewhere: what the
 * report says of each outcome in {@code MigrateCommandReportTest}, Elasticsearch's part in {@code ElasticsearchSchemaIT}.
 */
class MigrateCommandIT {

    ProfileStoreConfiguration config;
    Backends backends;
    String keyspace;
    String alias;

    @BeforeEach
    void ownKeyspaceAndAlias() {
        config = TestStack.configuration();
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        keyspace = "migrate_test_" + suffix;
        alias = "migrate-test-" + suffix;
        config.cassandra.keyspace = keyspace;
        config.elasticsearch.indexAlias = alias;
        config.elasticsearch.index.shards = 2;
        backends = Backends.open(config.backends(), new MetricRegistry(), "migrate-test");
    }

    @AfterEach
    void cleanUp() throws Exception {
        try {
            // a schema change waits for the node to agree, which on a busy machine takes longer than a request's 2 s
            backends.cassandra().execute(SimpleStatement
                    .newInstance("DROP KEYSPACE IF EXISTS " + keyspace).setTimeout(java.time.Duration.ofSeconds(30)));
            backends.elasticsearch().indices().delete(d -> d.index(ElasticsearchSchema.indexName(alias, 1)).ignoreUnavailable(true));
        } finally {
            backends.close();
        }
    }

    @Test
    void appliesEverythingOnceAndNothingTheSecondTimeAndSaysSo() throws Exception {
        var first = MigrateCommand.migrate(config, backends);

        assertThat(first.cassandra().keyspaceCreated()).isTrue();
        assertThat(first.cassandra().versionBefore()).isZero();
        assertThat(first.cassandra().versionAfter()).isGreaterThanOrEqualTo(1);
        var tables = backends.cassandra().getMetadata().getKeyspace(keyspace).orElseThrow().getTables().keySet();
        assertThat(tables.stream().map(Object::toString)).contains("profile", "persons", "uid_pid");
        assertThat(first.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.CREATED);
        String index = ElasticsearchSchema.indexName(alias, 1);
        var aliased = backends.elasticsearch().indices().getAlias(a -> a.name(alias)).aliases();
        assertThat(aliased).containsOnlyKeys(index);
        var settings = backends.elasticsearch().indices()
                .getSettings(GetIndicesSettingsRequest.of(s -> s.index(index))).get(index).settings().index();
        assertThat(settings.numberOfShards()).isEqualTo("2");
        assertThat(settings.numberOfReplicas()).isEqualTo("0");
        assertThat(postgresMigrations()).isEqualTo(1);

        var second = MigrateCommand.migrate(config, backends);

        assertThat(second.cassandra().keyspaceCreated()).isFalse();
        assertThat(second.cassandra().applied()).isZero();
        assertThat(second.cassandra().versionAfter()).isEqualTo(first.cassandra().versionAfter());
        assertThat(second.cassandra().replicationNote()).isEmpty();
        assertThat(second.postgres().applied()).isZero();
        assertThat(second.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.UNCHANGED);
        assertThat(postgresMigrations()).isEqualTo(1);

        assertThat(report(first))
                .contains("cassandra: keyspace " + keyspace + " created")
                .contains("elasticsearch: alias " + alias + " -> " + index + ": index created with its alias")
                .contains("postgres:");
        assertThat(report(second))
                .contains("cassandra: keyspace " + keyspace + " exists, 0 migration(s) applied")
                .contains("elasticsearch: alias " + alias + " -> " + index + ": up to date")
                .contains("postgres: 0 migration(s) applied");
    }

    private static String report(MigrateCommand.Report report) {
        var out = new ByteArrayOutputStream();
        MigrateCommand.report(new PrintStream(out, true, StandardCharsets.UTF_8), report);
        return out.toString(StandardCharsets.UTF_8);
    }

    private int postgresMigrations() throws Exception {
        try (var connection = backends.postgres().getConnection();
                var statement = connection.createStatement();
                var rs = statement.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success AND version = '1'")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
