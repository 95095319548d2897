package io.profilestore.schema;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.indices.GetIndicesSettingsRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.util.Duration;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Elasticsearch's part of {@code migrate}, on an index alias of its own, fresh for each test (so that each runs alone
 * and in any order): the index of an older build, the refresh interval. What the report says of each outcome is
 * {@code MigrateCommandReportTest}'s; the whole command on every store, {@code MigrateCommandIT}'s.
 */
class ElasticsearchSchemaIT {

    ElasticsearchFactory settings;
    ElasticsearchClient client;
    String alias;
    String index;

    @BeforeEach
    void ownAlias() {
        settings = TestStack.configuration().elasticsearch;
        alias = "schema-test-" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        settings.indexAlias = alias;
        index = ElasticsearchSchema.indexName(alias, 1);
        client = TestStack.backends().elasticsearch();
    }

    @AfterEach
    void cleanUp() throws IOException {
        client.indices().delete(d -> d.index(index).ignoreUnavailable(true));
    }

    /** The index as an older build made it, with its alias: the file's mapping, changed by {@code older}. */
    void createdByAnOlderBuild(Consumer<ObjectNode> older) throws IOException {
        JsonNode body = new ObjectMapper().readTree(ElasticsearchSchema.class.getClassLoader()
                .getResourceAsStream(ElasticsearchSchema.MAPPING));
        older.accept((ObjectNode) body.path("mappings").path("properties"));
        String json = new ObjectMapper().writeValueAsString(body);
        client.indices().create(c -> c.index(index).withJson(new StringReader(json)).aliases(alias, a -> a.isWriteIndex(true)));
    }

    @Test
    void anIndexOfAnOlderBuildGetsTheFieldsThisOneAdds() throws Exception {
        // the index as a build before the names' asWritten fields made it
        createdByAnOlderBuild(properties -> {
            for (String name : List.of("surname", "firstName", "patronymic")) {
                ((ObjectNode) properties.path(name)).remove("fields");
            }
        });
        assertThat(asWrittenMapped()).isFalse();

        var first = ElasticsearchSchema.migrate(client, settings);
        assertThat(first.outcome()).isEqualTo(ElasticsearchSchema.Outcome.MAPPING_EXTENDED);
        assertThat(first.index()).isEqualTo(index);
        assertThat(asWrittenMapped()).isTrue();

        var second = ElasticsearchSchema.migrate(client, settings);
        assertThat(second.outcome()).isEqualTo(ElasticsearchSchema.Outcome.UNCHANGED);
    }

    @Test
    void aMappingElasticsearchCannotChangeInPlaceIsReportedAndTheUpgradeGoesOn() throws Exception {
        // an index whose version field an imagined older build mapped as a keyword: no PUT can make it a long
        createdByAnOlderBuild(properties -> properties.putObject("version").put("type", "keyword"));

        var result = ElasticsearchSchema.migrate(client, settings);

        assertThat(result.outcome()).isEqualTo(ElasticsearchSchema.Outcome.MAPPING_DIFFERS);
        assertThat(result.refusal()).contains("version");
        assertThat(client.indices().getAlias(a -> a.name(alias)).aliases()).as("the index in use stays in use")
                .containsOnlyKeys(index);
    }

    @Test
    void theRefreshIntervalIsTheConfigurationsOnANewIndexAndOnTheIndexInUse() throws Exception {
        var created = ElasticsearchSchema.migrate(client, settings);
        assertThat(created.outcome()).isEqualTo(ElasticsearchSchema.Outcome.CREATED);
        assertThat(refreshInterval()).as("the default, not Elasticsearch's 1s").isEqualTo("500ms");

        // an index made before the setting, or with another value: migrate changes it in place
        settings.index.refreshInterval = Duration.seconds(2);
        var changed = ElasticsearchSchema.migrate(client, settings);
        assertThat(refreshInterval()).isEqualTo("2000ms");
        assertThat(changed.outcome()).isEqualTo(ElasticsearchSchema.Outcome.UNCHANGED);
        assertThat(changed.refreshIntervalChange()).isEqualTo("500ms -> 2000ms");

        var again = ElasticsearchSchema.migrate(client, settings);
        assertThat(again.refreshIntervalChange()).isNull();
    }

    @Test
    void aRefreshIntervalWrittenInOtherUnitsIsTheSameInterval() throws Exception {
        ElasticsearchSchema.migrate(client, settings);
        // set by hand, or by an older build, as Elasticsearch writes it: the configured 1000 ms is the same
        client.indices().putSettings(p -> p.index(index).settings(st -> st.refreshInterval(t -> t.time("1s"))));
        settings.index.refreshInterval = Duration.milliseconds(1000);

        var result = ElasticsearchSchema.migrate(client, settings);

        assertThat(result.refreshIntervalChange()).isNull();
        assertThat(refreshInterval()).isEqualTo("1s");
    }

    private String refreshInterval() throws IOException {
        return client.indices().getSettings(GetIndicesSettingsRequest.of(s -> s.index(index)))
                .get(index).settings().index().refreshInterval().time();
    }

    private boolean asWrittenMapped() throws IOException {
        var surname = client.indices().getMapping(g -> g.index(index)).get(index).mappings().properties().get("surname");
        return surname.keyword().fields().containsKey("asWritten");
    }
}
