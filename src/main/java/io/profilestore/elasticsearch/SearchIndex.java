package io.profilestore.elasticsearch;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * The profile index in Elasticsearch, as the indexer, the reconciler and search use it: it sends what they built
 * (documents, search requests) and reads what the index holds. Which queries a search makes is core's
 * ({@code search.SearchQuery}); which generation the alias names, the schema's ({@code schema.IndexAliases}).
 * Every write carries the profile's version as external version, so a write of an older version than the index
 * holds is refused by Elasticsearch itself (409), whatever order writes arrive in.
 */
public class SearchIndex {

    /** One write of a bulk: a document to put, or a profile to remove, in one index or through one of our aliases. */
    public sealed interface Write permits Put, Remove {
        String index();

        UUID pid();
    }

    /**
     * @param document what the index holds of the profile (the search's profile document), as the client's JSON
     *     mapper writes it
     * @param externalVersion the write timestamp of the profile's row (its last change's fence): it grows with
     *     every change, and leaves room to overwrite a document someone changed by hand
     */
    public record Put(String index, UUID pid, Object document, long externalVersion) implements Write {
    }

    /** @param fence the erase's fence, above every fence the profile was written with; null: remove unversioned */
    public record Remove(String index, UUID pid, Long fence) implements Write {
    }

    /** What became of one write. */
    public enum Outcome {
        DONE,
        /** The index holds a newer version (or the delete of one): nothing to do. */
        STALE,
        /** Removing a profile the index never had. */
        ABSENT,
        /** Refused for a reason a retry does not cure (a document the mapping rejects). */
        REJECTED
    }

    public record Result(Write write, Outcome outcome, String reason) {
    }

    private final ElasticsearchClient client;
    private final String alias;

    /** The alias of a generation being built by a reindex: the indexer writes to it as well. */
    public static String nextAlias(String alias) {
        return alias + "-next";
    }

    public SearchIndex(ElasticsearchClient client, String alias) {
        this.client = client;
        this.alias = alias;
    }

    public String alias() {
        return alias;
    }

    /**
     * Where every change goes: the alias, and the alias of the generation a reindex is building ({@code
     * <alias>-next}) while there is one. Aliases, not the indices behind them, and resolved by Elasticsearch when
     * the bulk arrives: a write planned just before a reindex swaps the alias still lands in the generation that
     * is live when it arrives, and a write to a generation deleted meanwhile fails instead of creating it again
     * (writes through an alias require the alias). Asked afresh for every batch, after its messages arrived (and
     * after the profiles were read): a reindex that began before the lookup copies what was read, and one that
     * begins after it reads the profiles later.
     */
    public List<String> writeTargets() throws IOException {
        if (!client.indices().existsAlias(a -> a.name(alias)).value()) {
            // without an index to write to, acknowledging would lose the change for search: wait for migrate
            throw new IOException("no index behind alias " + alias + "; run migrate");
        }
        String next = nextAlias(alias);
        return client.indices().existsAlias(a -> a.name(next)).value() ? List.of(alias, next) : List.of(alias);
    }

    private boolean isAlias(String name) {
        return name.equals(alias) || name.equals(nextAlias(alias));
    }

    /**
     * Sends the writes as one bulk request. Throws when Elasticsearch cannot be reached or refuses the request as
     * a whole (then nothing is known to be written and the caller retries); otherwise says what became of each.
     */
    public List<Result> bulk(List<Write> writes) throws IOException {
        if (writes.isEmpty()) {
            return List.of();
        }
        var operations = new ArrayList<BulkOperation>();
        for (var write : writes) {
            if (write instanceof Put put) {
                operations.add(BulkOperation.of(o -> o.index(i -> i.index(put.index()).id(put.pid().toString())
                        .version(put.externalVersion()).versionType(VersionType.External)
                        .requireAlias(isAlias(put.index()))
                        .document(put.document()))));
            } else if (write instanceof Remove remove) {
                operations.add(BulkOperation.of(o -> o.delete(d -> {
                    d.index(remove.index()).id(remove.pid().toString());
                    return remove.fence() == null ? d : d.version(remove.fence()).versionType(VersionType.External);
                })));
            }
        }
        var response = client.bulk(b -> b.operations(operations));
        var results = new ArrayList<Result>();
        for (int i = 0; i < writes.size(); i++) {
            var item = response.items().get(i);
            var write = writes.get(i);
            if (item.error() == null) {
                results.add(new Result(write, "not_found".equals(item.result()) ? Outcome.ABSENT : Outcome.DONE, null));
            } else if (item.status() == 409) {
                results.add(new Result(write, Outcome.STALE, item.error().type()));
            } else if (item.status() == 404) {
                results.add(new Result(write, Outcome.ABSENT, item.error().type()));
            } else if (item.status() == 429 || item.status() >= 500) {
                throw new IOException("Elasticsearch could not take a write now (" + item.status() + " "
                        + item.error().type() + ")");
            } else {
                results.add(new Result(write, Outcome.REJECTED, item.error().type() + ": " + item.error().reason()));
            }
        }
        return results;
    }

    /** The hits of a search, their sources read as {@code source}; Elasticsearch's refusals are thrown as they come. */
    public <T> List<Hit<T>> search(SearchRequest request, Class<T> source) throws IOException {
        return client.search(request, source).hits().hits();
    }

    /** What the index holds of a profile: its version (in the document) and the external version it was written with. */
    public record Indexed(long version, long external) {
    }

    /** Every profile the index behind the alias holds, with its versions: a scan through a point in time. */
    public Map<UUID, Indexed> versions() throws IOException {
        var versions = new HashMap<UUID, Indexed>();
        String pit = client.openPointInTime(p -> p.index(alias).keepAlive(t -> t.time("5m"))).id();
        try {
            List<FieldValue> after = null;
            while (true) {
                var last = after;
                var response = client.search(s -> {
                    s.pit(p -> p.id(pit).keepAlive(t -> t.time("5m"))).size(5_000).version(true)
                            .source(src -> src.filter(f -> f.includes("version"))).trackTotalHits(t -> t.enabled(false))
                            .sort(o -> o.field(f -> f.field("_shard_doc")));
                    if (last != null) {
                        s.searchAfter(last);
                    }
                    return s;
                }, JsonNode.class);
                var hits = response.hits().hits();
                for (var hit : hits) {
                    versions.put(UUID.fromString(hit.id()), indexed(hit.source(), hit.version()));
                }
                if (hits.size() < 5_000) {
                    return versions;
                }
                after = hits.get(hits.size() - 1).sort();
            }
        } finally {
            closeQuietly(pit);
        }
    }

    /** Closes a scan's point in time; a close that fails costs nothing lasting, it expires by itself. */
    private void closeQuietly(String pit) {
        try {
            client.closePointInTime(c -> c.id(pit));
        } catch (IOException | RuntimeException ignored) {
            // it expires by itself
        }
    }

    /** The versions the index behind the alias holds of these profiles (absent: not indexed). */
    public Map<UUID, Indexed> versionsOf(Collection<UUID> pids) throws IOException {
        var versions = new HashMap<UUID, Indexed>();
        if (pids.isEmpty()) {
            return versions;
        }
        var response = client.mget(m -> m.index(alias).ids(pids.stream().map(UUID::toString).toList())
                .sourceIncludes("version"), JsonNode.class);
        for (var doc : response.docs()) {
            if (doc.isResult() && doc.result().found()) {
                versions.put(UUID.fromString(doc.result().id()), indexed(doc.result().source(), doc.result().version()));
            }
        }
        return versions;
    }

    private static Indexed indexed(JsonNode source, Long external) {
        long version = source == null ? -1 : source.path("version").asLong(-1);
        return new Indexed(version, external == null ? -1 : external);
    }

    /**
     * Whether an exception means Elasticsearch is away or overloaded, as opposed to a refusal of the request: an
     * I/O failure, a 429 or 5xx, or a timeout that the client wrapped in a RuntimeException (the wait for one of its
     * pooled connections running out). Not what wraps a parse error or a bug.
     */
    public static boolean isOutage(Exception e) {
        if (e instanceof ElasticsearchException es) {
            return es.status() == 429 || es.status() >= 500;
        }
        if (e instanceof IOException) {
            return true;
        }
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }
}
