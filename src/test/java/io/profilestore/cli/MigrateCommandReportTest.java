package io.profilestore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.schema.CassandraSchema;
import io.profilestore.schema.ElasticsearchSchema;
import io.profilestore.schema.ElasticsearchSchema.Outcome;
import io.profilestore.schema.PostgresSchema;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code migrate} prints of each outcome (the real round trip: {@code MigrateCommandIT}). */
class MigrateCommandReportTest {

    static final PostgresSchema.Result POSTGRES_UP_TO_DATE = new PostgresSchema.Result("7", "7", 0, true);
    static final CassandraSchema.Result KEYSPACE_UP_TO_DATE = new CassandraSchema.Result("profiles", false, 5, 5, "");

    static String report(PostgresSchema.Result postgres, CassandraSchema.Result cassandra,
            ElasticsearchSchema.Result elasticsearch) {
        var out = new ByteArrayOutputStream();
        MigrateCommand.report(new PrintStream(out, true, StandardCharsets.UTF_8),
                new MigrateCommand.Report(postgres, cassandra, elasticsearch));
        return out.toString(StandardCharsets.UTF_8);
    }

    static String report(ElasticsearchSchema.Result elasticsearch) {
        return report(POSTGRES_UP_TO_DATE, KEYSPACE_UP_TO_DATE, elasticsearch);
    }

    @Test
    void aFirstRunSaysWhatItCreatedInEachStore() {
        String report = report(new PostgresSchema.Result("none", "7", 7, true),
                new CassandraSchema.Result("profiles", true, 0, 5, ""),
                new ElasticsearchSchema.Result("profiles", "profiles-v1", Outcome.CREATED));

        assertThat(report.lines()).containsExactly(
                "postgres: 7 migration(s) applied, schema version none -> 7",
                "cassandra: keyspace profiles created, 5 migration(s) applied, version 0 -> 5",
                "elasticsearch: alias profiles -> profiles-v1: index created with its alias",
                "rabbitmq: exchange profile.events, queue profile.indexer, dead letters in profile.indexer.dead");
    }

    @Test
    void aRunThatChangesNothingSaysEverythingIsUpToDate() {
        String report = report(new ElasticsearchSchema.Result("profiles", "profiles-v3", Outcome.UNCHANGED));

        assertThat(report)
                .contains("postgres: 0 migration(s) applied, schema version 7 -> 7")
                .contains("cassandra: keyspace profiles exists, 0 migration(s) applied, version 5 -> 5")
                .contains("elasticsearch: alias profiles -> profiles-v3: up to date")
                .doesNotContain("WARNING")
                .doesNotContain("refresh interval");
    }

    @Test
    void aReplicationThatDiffersFromTheConfigurationIsAWarning() {
        String report = report(POSTGRES_UP_TO_DATE,
                new CassandraSchema.Result("profiles", false, 5, 5, "keyspace replication is {replication_factor=1},"
                        + " configuration asks {replication_factor=3}; left as it is"),
                new ElasticsearchSchema.Result("profiles", "profiles-v1", Outcome.UNCHANGED));

        assertThat(report).contains("cassandra: WARNING keyspace replication is {replication_factor=1}, configuration"
                + " asks {replication_factor=3}; left as it is");
    }

    @Test
    void fieldsAddedToTheMappingAreSaidToReachOldDocumentsWhenTheyAreIndexedAgain() {
        assertThat(report(new ElasticsearchSchema.Result("profiles", "profiles-v1", Outcome.MAPPING_EXTENDED)))
                .contains("elasticsearch: alias profiles -> profiles-v1: new fields added to the mapping; documents "
                        + "indexed before get them when indexed again (a change, or `reindex`)")
                .doesNotContain("WARNING");
    }

    @Test
    void aMappingElasticsearchCannotChangeInPlaceIsAWarningThatNamesTheRefusalAndTheCure() {
        var refused = new ElasticsearchSchema.Result("profiles", "profiles-v1", Outcome.MAPPING_DIFFERS,
                "mapper [version] cannot be changed from type [keyword] to [long]", null);

        assertThat(report(refused))
                .contains("elasticsearch: alias profiles -> profiles-v1: WARNING the mapping of this build differs")
                .contains("(mapper [version] cannot be changed from type [keyword] to [long])")
                .contains("run `reindex`");
    }

    @Test
    void aChangedRefreshIntervalIsReportedWithItsSetting() {
        var changed = new ElasticsearchSchema.Result("profiles", "profiles-v1", Outcome.UNCHANGED, null,
                "500ms -> 2000ms");

        assertThat(report(changed))
                .contains("elasticsearch: refresh interval 500ms -> 2000ms (elasticsearch.index.refreshInterval)");
    }
}
