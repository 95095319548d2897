package io.profilestore.cli;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.backends.Backends;
import io.profilestore.cassandra.ProfileDao;
import io.profilestore.core.search.NameNormalizer;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.indexer.ProfileDocuments;
import io.profilestore.indexer.Reconciler;
import io.profilestore.indexer.Reindexer;
import io.profilestore.postgres.ReindexProgress;
import io.profilestore.schema.IndexAliases;
import io.profilestore.wiring.StoreAdapters;
import java.time.Duration;

/** The parts the index maintenance commands and tasks are made of, built from one configuration. */
public final class IndexCommands {

    private IndexCommands() {
    }

    public record Parts(ProfileDao profiles, ProfileDocuments documents, SearchIndex index, IndexAliases aliases) {
    }

    public static Parts parts(ProfileStoreConfiguration config, Backends backends, MetricRegistry metrics, ObjectMapper json) {
        var profiles = new StoreAdapters(config, backends, metrics).profiles();
        var documents = new ProfileDocuments(profiles, NameNormalizer.standard(), json);
        String alias = config.elasticsearch.indexAlias;
        return new Parts(profiles, documents, new SearchIndex(backends.elasticsearch(), alias),
                new IndexAliases(backends.elasticsearch(), alias));
    }

    public static Reindexer reindexer(ProfileStoreConfiguration config, Backends backends, Parts parts) {
        return new Reindexer(parts.profiles(), parts.documents(), parts.index(), parts.aliases(),
                new ReindexProgress(backends.postgres()), config.elasticsearch);
    }

    public static Reconciler reconciler(Parts parts, Duration grace) {
        return new Reconciler(parts.profiles(), parts.documents(), parts.index(), parts.aliases(), grace);
    }

    static ObjectMapper json() {
        return Jackson.newObjectMapper();
    }
}
