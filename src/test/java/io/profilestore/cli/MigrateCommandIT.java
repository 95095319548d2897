package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.indices.GetIndicesSettingsRequest;
import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.util.Duration;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.backends.Backends;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.testing.TestStack;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code migrate} on a keyspace and an index alias of its own, fresh for each test (so that each runs alone and in
 * any order): the first run creates everything, the second changes nothing.
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
    void appliesEverythingOnceAndNothingTheSecondTime() throws Exception {
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
    }

    @Test
    void anIndexOfAnOlderBuildGetsTheFieldsThisOneAdds() throws Exception {
        // the index as a build before the names' asWritten fields made it, with its alias
        var older = new ObjectMapper().readTree(ElasticsearchSchema.class.getClassLoader()
                .getResourceAsStream(ElasticsearchSchema.MAPPING));
        var properties = (ObjectNode) older.path("mappings").path("properties");
        for (String name : List.of("surname", "firstName", "patronymic")) {
            ((ObjectNode) properties.path(name)).remove("fields");
        }
        String index = ElasticsearchSchema.indexName(alias, 1);
        String body = new ObjectMapper().writeValueAsString(older);
        backends.elasticsearch().indices().create(c -> c.index(index).withJson(new StringReader(body)).aliases(alias, a -> a.isWriteIndex(true)));
        assertThat(asWrittenMapped(index)).isFalse();

        var first = MigrateCommand.migrate(config, backends);
        assertThat(first.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.MAPPING_EXTENDED);
        assertThat(asWrittenMapped(index)).isTrue();
        assertThat(report(first)).contains("new fields added to the mapping");

        var second = MigrateCommand.migrate(config, backends);
        assertThat(second.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.UNCHANGED);
    }

    @Test
    void aMappingElasticsearchCannotChangeInPlaceIsReportedAndTheUpgradeGoesOn() throws Exception {
        // an index whose version field an imagined older build mapped as a keyword: no PUT can make it a long
        var older = new ObjectMapper().readTree(ElasticsearchSchema.class.getClassLoader()
                .getResourceAsStream(ElasticsearchSchema.MAPPING));
        ((ObjectNode) older.path("mappings").path("properties")).putObject("version").put("type", "keyword");
        String index = ElasticsearchSchema.indexName(alias, 1);
        String body = new ObjectMapper().writeValueAsString(older);
        backends.elasticsearch().indices().create(c -> c.index(index).withJson(new StringReader(body)).aliases(alias, a -> a.isWriteIndex(true)));

        var report = MigrateCommand.migrate(config, backends);

        assertThat(report.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.MAPPING_DIFFERS);
        assertThat(report.elasticsearch().refusal()).contains("version");
        assertThat(report(report)).contains("WARNING the mapping of this build differs").contains("run `reindex`");
    }

    @Test
    void theRefreshIntervalIsTheConfigurationsOnANewIndexAndOnTheIndexInUse() throws Exception {
        String index = ElasticsearchSchema.indexName(alias, 1);
        MigrateCommand.migrate(config, backends);
        assertThat(refreshInterval(index)).as("the default, not Elasticsearch's 1s").isEqualTo("500ms");

        // an index made before the setting, or with another value: migrate changes it in place
        config.elasticsearch.index.refreshInterval = Duration.seconds(2);
        var changed = MigrateCommand.migrate(config, backends);
        assertThat(refreshInterval(index)).isEqualTo("2000ms");
        assertThat(changed.elasticsearch().outcome()).isEqualTo(ElasticsearchSchema.Outcome.UNCHANGED);
        assertThat(report(changed)).contains("elasticsearch: refresh interval 500ms -> 2000ms");

        var again = MigrateCommand.migrate(config, backends);
        assertThat(again.elasticsearch().refreshIntervalChange()).isNull();
        assertThat(report(again)).doesNotContain("refresh interval");
    }

    @Test
    void aRefreshIntervalWrittenInOtherUnitsIsTheSameInterval() throws Exception {
        String index = ElasticsearchSchema.indexName(alias, 1);
        MigrateCommand.migrate(config, backends);
        // set by hand, or by an older build, as Elasticsearch writes it: the configured 1000 ms is the same
        backends.elasticsearch().indices().putSettings(p -> p.index(index).settings(st -> st.refreshInterval(t -> t.time("1s"))));
        config.elasticsearch.index.refreshInterval = Duration.milliseconds(1000);

        var report = MigrateCommand.migrate(config, backends);

        assertThat(report.elasticsearch().refreshIntervalChange()).isNull();
        assertThat(refreshInterval(index)).isEqualTo("1s");
    }

    private String refreshInterval(String index) throws Exception {
        return backends.elasticsearch().indices().getSettings(GetIndicesSettingsRequest.of(s -> s.index(index)))
                .get(index).settings().index().refreshInterval().time();
    }

    private boolean asWrittenMapped(String index) throws Exception {
        var surname = backends.elasticsearch().indices().getMapping(g -> g.index(index)).get(index).mappings()
                .properties().get("surname");
        return surname.keyword().fields().containsKey("asWritten");
    }

    @Test
    void reportSaysWhatHappened() throws Exception {
        String first = report(MigrateCommand.migrate(config, backends));
        String second = report(MigrateCommand.migrate(config, backends));

        assertThat(first)
                .contains("cassandra: keyspace " + keyspace + " created")
                .contains("elasticsearch: alias " + alias + " -> " + ElasticsearchSchema.indexName(alias, 1)
                        + ": index created with its alias")
                .contains("postgres:");
        assertThat(second)
                .contains("cassandra: keyspace " + keyspace + " exists, 0 migration(s) applied")
                .contains("elasticsearch: alias " + alias + " -> " + ElasticsearchSchema.indexName(alias, 1) + ": up to date")
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
