package io.profilestore.schema;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch.indices.CreateIndexRequest;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.backends.ElasticsearchFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;

/**
 * Creates the current index ({@code <alias>-v<N>}) from {@code es-mappings/profiles-v<N>.json} together with its
 * alias, in one request. When the alias exists it is left alone: moving it to a newer index is the job of a
 * reindex, which fills the new index first.
 */
public final class ElasticsearchSchema {

    /** The version of {@code es-mappings/profiles-v<N>.json} the code reads and writes. */
    public static final int CURRENT_VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper();

    public enum Outcome { CREATED, ALIAS_ADDED, UNCHANGED, ALIAS_ON_OTHER_INDEX }

    public record Result(String alias, String index, Outcome outcome) {
    }

    private ElasticsearchSchema() {
    }

    public static String indexName(String alias, int version) {
        return alias + "-v" + version;
    }

    public static String mappingResource(int version) {
        return "es-mappings/profiles-v" + version + ".json";
    }

    public static Result migrate(ElasticsearchClient client, ElasticsearchFactory settings) throws IOException {
        String alias = settings.getIndexAlias();
        String index = indexName(alias, CURRENT_VERSION);
        if (client.indices().existsAlias(a -> a.name(alias)).value()) {
            var targets = client.indices().getAlias(a -> a.name(alias)).aliases().keySet();
            return targets.contains(index)
                    ? new Result(alias, index, Outcome.UNCHANGED)
                    : new Result(alias, String.join(",", targets), Outcome.ALIAS_ON_OTHER_INDEX);
        }
        if (client.indices().exists(e -> e.index(index)).value()) {
            client.indices().updateAliases(u -> u.actions(a -> a.add(add -> add.index(index).alias(alias).isWriteIndex(true))));
            return new Result(alias, index, Outcome.ALIAS_ADDED);
        }
        client.indices().create(createRequest(index, alias, settings));
        return new Result(alias, index, Outcome.CREATED);
    }

    /**
     * The file's settings and mappings as they are, with the per-environment shard and replica counts of the
     * configuration laid over them: one source of truth for the index, plus what differs between environments.
     */
    static CreateIndexRequest createRequest(String index, String alias, ElasticsearchFactory settings) {
        String resource = mappingResource(CURRENT_VERSION);
        try (InputStream json = ElasticsearchSchema.class.getClassLoader().getResourceAsStream(resource)) {
            if (json == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            var body = (ObjectNode) JSON.readTree(json);
            var indexSettings = body.withObjectProperty("settings").withObjectProperty("index");
            indexSettings.put("number_of_shards", settings.getIndex().getShards());
            indexSettings.put("number_of_replicas", settings.getIndex().getReplicas());
            body.remove("aliases");
            String withOverrides = JSON.writeValueAsString(body);
            return CreateIndexRequest.of(c -> c
                    .index(index)
                    .withJson(new StringReader(withOverrides))
                    .aliases(alias, a -> a.isWriteIndex(true)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}
