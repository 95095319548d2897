package io.profilestore.schema;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch.indices.CreateIndexRequest;
import co.elastic.clients.elasticsearch.indices.IndexSettings;
import co.elastic.clients.json.JsonpUtils;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.util.Duration;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.elasticsearch.SearchIndex;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The profile index: generations {@code <alias>-v1}, {@code -v2}... built from {@code es-mappings/profiles.json},
 * the alias pointing at the one in use. {@code migrate} creates the first generation with its alias in one
 * request; when the alias exists it adds what the file adds to its mapping (and to a generation a reindex is
 * building); moving the alias to a new generation is the job of a reindex, which fills the new index first.
 */
public final class ElasticsearchSchema {

    public static final String MAPPING = "es-mappings/profiles.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Outcome { CREATED, ALIAS_ADDED, MAPPING_EXTENDED, MAPPING_DIFFERS, UNCHANGED }

    /**
     * @param refusal why Elasticsearch would not take the file's mapping in place (MAPPING_DIFFERS), else null
     * @param refreshIntervalChange how migrate changed the refresh interval of the index in use to the configured one
     *     ({@code 1s -> 500ms}), else null
     */
    public record Result(String alias, String index, Outcome outcome, String refusal, String refreshIntervalChange) {
        public Result(String alias, String index, Outcome outcome) {
            this(alias, index, outcome, null, null);
        }

        Result withRefreshIntervalChange(String change) {
            return new Result(alias, index, outcome, refusal, change);
        }
    }

    private ElasticsearchSchema() {
    }

    public static String indexName(String alias, int generation) {
        return alias + "-v" + generation;
    }

    /** The generation of an index named {@code <alias>-v<N>}. */
    public static int generation(String alias, String index) {
        if (!index.startsWith(alias + "-v")) {
            throw new IllegalArgumentException(index + " is not a generation of " + alias);
        }
        return Integer.parseInt(index.substring(alias.length() + 2));
    }

    public static Result migrate(ElasticsearchClient client, ElasticsearchFactory settings) throws IOException {
        String alias = settings.indexAlias;
        String index = indexName(alias, 1);
        if (client.indices().existsAlias(a -> a.name(alias)).value()) {
            var targets = String.join(",", client.indices().getAlias(a -> a.name(alias)).aliases().keySet());
            String refreshChange = setRefreshInterval(client, alias, settings);
            if (client.indices().existsAlias(a -> a.name(SearchIndex.nextAlias(alias))).value()) {
                setRefreshInterval(client, SearchIndex.nextAlias(alias), settings);
            }
            return migrateMapping(client, alias, targets).withRefreshIntervalChange(refreshChange);
        }
        if (client.indices().exists(e -> e.index(index)).value()) {
            client.indices().updateAliases(u -> u.actions(a -> a.add(add -> add.index(index).alias(alias).isWriteIndex(true))));
            return new Result(alias, index, Outcome.ALIAS_ADDED)
                    .withRefreshIntervalChange(setRefreshInterval(client, alias, settings));
        }
        client.indices().create(createRequest(index, alias, settings));
        return new Result(alias, index, Outcome.CREATED);
    }

    /** Lays the file's mappings over the index in use and the next generation, if a reindex is building one. */
    private static Result migrateMapping(ElasticsearchClient client, String alias, String targets) throws IOException {
        try {
            boolean extended = extendMapping(client, alias);
            // a generation a reindex is building (maybe by an older build) must not lose the new fields either
            if (client.indices().existsAlias(a -> a.name(SearchIndex.nextAlias(alias))).value()) {
                extended |= extendMapping(client, SearchIndex.nextAlias(alias));
            }
            return new Result(alias, targets, extended ? Outcome.MAPPING_EXTENDED : Outcome.UNCHANGED);
        } catch (ElasticsearchException refused) {
            if (refused.status() != 400) {
                throw refused;
            }
            // a change Elasticsearch cannot make in place: the service still runs on the index as it is (an
            // upgrade must not fail on it), and a reindex into a new generation brings the new mapping
            return new Result(alias, targets, Outcome.MAPPING_DIFFERS, refused.error().reason(), null);
        }
    }

    /**
     * Gives the indices behind {@code alias} the configured refresh interval (a dynamic setting: no reindex, no
     * pause), when one differs. Returns the change ({@code 1s -> 500ms}), or null when they all had it already.
     */
    private static String setRefreshInterval(ElasticsearchClient client, String alias, ElasticsearchFactory settings)
            throws IOException {
        var configured = settings.index.refreshInterval;
        String wanted = settings.index.refreshIntervalSetting();
        String before = null;
        var current = client.indices().getSettings(s -> s.index(alias).name("index.refresh_interval").includeDefaults(true));
        for (var entry : current.settings().entrySet()) {
            var index = entry.getValue();
            String now = refreshInterval(index.settings()).orElseGet(() -> refreshInterval(index.defaults()).orElse("1s"));
            if (!sameInterval(now, configured)) {
                before = before == null ? now : before;
                client.indices().putSettings(p -> p.index(entry.getKey()).settings(s -> s.refreshInterval(t -> t.time(wanted))));
            }
        }
        return before == null ? null : before + " -> " + wanted;
    }

    /**
     * Whether Elasticsearch's value ({@code 1s}, {@code 500ms}, {@code -1} for never) is the configured interval,
     * whatever its units: a value written as 1s is 1000 ms, not a change to make and report on every upgrade.
     */
    static boolean sameInterval(String elasticsearchValue, Duration configured) {
        try {
            return Duration.parse(elasticsearchValue).toNanoseconds() == configured.toNanoseconds();
        } catch (IllegalArgumentException notADuration) {
            return false;
        }
    }

    private static Optional<String> refreshInterval(IndexSettings settings) {
        if (settings == null) {
            return Optional.empty();
        }
        var inIndex = settings.index() == null ? null : settings.index().refreshInterval();
        var time = inIndex != null ? inIndex : settings.refreshInterval();
        return time == null ? Optional.empty()
                : Optional.of(time.isTime() ? time.time() : String.valueOf(time.offset()));
    }

    /**
     * Lays the file's mappings over the index in use: what a newer build adds (a field, a multi-field) is added,
     * so that the indexer's documents fit and searches of the new fields work; what it changes, Elasticsearch
     * refuses (400), and that takes a reindex into a new generation. Documents indexed before
     * get the new fields when they are indexed again: a change, or {@code reindex}.
     *
     * @return whether the mapping changed
     */
    private static boolean extendMapping(ElasticsearchClient client, String alias) throws IOException {
        String before = mappings(client, alias);
        var mappings = JSON.writeValueAsString(readFile().get("mappings"));
        client.indices().putMapping(p -> p.index(alias).withJson(new StringReader(mappings)));
        return !before.equals(mappings(client, alias));
    }

    private static String mappings(ElasticsearchClient client, String alias) throws IOException {
        var text = new StringBuilder();
        client.indices().getMapping(g -> g.index(alias)).mappings()
                // the whole JSON: toString() is cut at 10,000 characters
                .forEach((index, record) -> text.append(index)
                        .append(JsonpUtils.toJsonString(record.mappings(), client._jsonpMapper())));
        return text.toString();
    }

    private static ObjectNode readFile() {
        String resource = MAPPING;
        try (InputStream json = ElasticsearchSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (json == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            return (ObjectNode) JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /**
     * The file's settings and mappings as they are, with the per-environment shard and replica counts and the
     * refresh interval of the configuration laid over them: one source of truth for the index, plus what differs between environments.
     */
    public static CreateIndexRequest createRequest(String index, String alias, ElasticsearchFactory settings) {
        try {
            var body = readFile();
            var indexSettings = body.withObjectProperty("settings").withObjectProperty("index");
            indexSettings.put("number_of_shards", settings.index.shards);
            indexSettings.put("number_of_replicas", settings.index.replicas);
            indexSettings.put("refresh_interval", settings.index.refreshIntervalSetting());
            body.remove("aliases");
            String withOverrides = JSON.writeValueAsString(body);
            return CreateIndexRequest.of(c -> c
                    .index(index)
                    .withJson(new StringReader(withOverrides))
                    .aliases(alias, a -> a.isWriteIndex(true)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the index request", e);
        }
    }
}
