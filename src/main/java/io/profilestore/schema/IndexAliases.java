package io.profilestore.schema;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import io.profilestore.backends.ElasticsearchFactory;
import io.profilestore.elasticsearch.SearchIndex;
import java.io.IOException;
import java.util.Optional;

/**
 * Which generation of the profile index the alias names, and the moves of a reindex: create the next generation
 * behind {@code <alias>-next}, swap the alias to it, drop the old one.
 */
public class IndexAliases {

    private final ElasticsearchClient client;
    private final String alias;

    public IndexAliases(ElasticsearchClient client, String alias) {
        this.client = client;
        this.alias = alias;
    }

    public String alias() {
        return alias;
    }

    /** The index behind the alias: the generation searches read. */
    public String currentIndex() throws IOException {
        var indices = client.indices().getAlias(a -> a.name(alias)).aliases().keySet();
        if (indices.size() != 1) {
            throw new IllegalStateException("alias " + alias + " should name one index, not " + indices);
        }
        return indices.iterator().next();
    }

    /** The generation a reindex is building, if one is. */
    public Optional<String> nextIndex() throws IOException {
        String next = SearchIndex.nextAlias(alias);
        if (!client.indices().existsAlias(a -> a.name(next)).value()) {
            return Optional.empty();
        }
        return client.indices().getAlias(a -> a.name(next)).aliases().keySet().stream().findFirst();
    }

    /** Creates {@code index} as the next generation, behind the next alias: the indexer writes to it from then on. */
    public void createNext(String index, ElasticsearchFactory settings) throws IOException {
        client.indices().create(ElasticsearchSchema.createRequest(index, SearchIndex.nextAlias(alias), settings));
    }

    /**
     * Moves the alias from one generation to the next in one atomic step, and ends the next alias: searches
     * switch without a moment of no index, and writes go to the new generation only.
     */
    public void swap(String from, String to) throws IOException {
        String next = SearchIndex.nextAlias(alias);
        client.indices().updateAliases(u -> u
                .actions(a -> a.remove(r -> r.index(from).alias(alias)))
                .actions(a -> a.add(add -> add.index(to).alias(alias).isWriteIndex(true)))
                .actions(a -> a.remove(r -> r.index(to).alias(next))));
    }

    public void refresh(String index) throws IOException {
        client.indices().refresh(r -> r.index(index));
    }

    public void deleteIndex(String index) throws IOException {
        client.indices().delete(d -> d.index(index));
    }
}
