package io.profilestore.db;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.elasticsearch._types.ElasticsearchException;
import co.elastic.clients.elasticsearch._types.VersionType;
import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.mapping.FieldType;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import co.elastic.clients.elasticsearch.core.bulk.BulkOperation;
import co.elastic.clients.elasticsearch.core.search.Hit;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.core.search.InvalidSearchException;
import io.profilestore.core.search.NameNormalizer;
import io.profilestore.core.search.SearchCriteria;
import io.profilestore.core.search.SearchUnavailableException;
import io.profilestore.core.search.ProfileDocument;
import io.profilestore.schema.ElasticsearchSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeoutException;

/**
 * The profile index in Elasticsearch. Every write carries the profile's version as external version, so a write
 * of an older version than the index holds is refused by Elasticsearch itself (409), whatever order writes arrive
 * in.
 */
public class SearchIndex {

    /** One write of a bulk: a document to put, or a profile to remove, in one index or through one of our aliases. */
    public sealed interface Write permits Put, Remove {
        String index();

        UUID pid();
    }

    /**
     * @param externalVersion the write timestamp of the profile's row (its last change's fence): it grows with
     *     every change, and leaves room to overwrite a document someone changed by hand
     */
    public record Put(String index, UUID pid, ProfileDocument document, long externalVersion) implements Write {
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

    public SearchIndex(ElasticsearchClient client, String alias) {
        this.client = client;
        this.alias = alias;
    }

    public ElasticsearchClient client() {
        return client;
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
        String next = ElasticsearchSchema.nextAlias(alias);
        return client.indices().existsAlias(a -> a.name(next)).value() ? List.of(alias, next) : List.of(alias);
    }

    private boolean isAlias(String name) {
        return name.equals(alias) || name.equals(ElasticsearchSchema.nextAlias(alias));
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

    private static final double AS_TYPED_BOOST = 2.0;

    /**
     * One page of a search, sorted by how well the name matched (a reading as typed before one with the other
     * keyboard layout), then by name, then by pid: a total order, so a page continues exactly after the last hit
     * of the one before ({@code search_after}) with no state kept in Elasticsearch between pages. A flood of first
     * pages costs nothing after its answers, and paging is stable while writes go on: no hit twice, none skipped,
     * except that a profile written or renamed meanwhile shows where its new sort place is, if that is still ahead.
     * One hit more than the page is asked for, so that a page that holds the last hit says there is no next.
     */
    public SearchPage search(SearchCriteria criteria, int limit, String cursor) {
        var after = cursor == null ? null : Cursor.decode(cursor);
        try {
            var response = client.search(request(alias, criteria, limit, after == null ? null : after.after()),
                    ProfileDocument.class);
            var hits = response.hits().hits();
            var page = hits.subList(0, Math.min(limit, hits.size()));
            String next = hits.size() > limit ? new Cursor(page.get(page.size() - 1).sort()).encode() : null;
            return new SearchPage(page.stream().map(Hit::source).toList(),
                    page.stream().map(hit -> List.copyOf(hit.matchedQueries().keySet())).toList(), next);
        } catch (ElasticsearchException e) {
            if (e.status() == 400 && after != null) {
                throw new InvalidSearchException("invalid-query", "the cursor does not belong to this search");
            }
            if (e.status() == 400) {
                // a search Elasticsearch will not run as asked (too many words and variants, say): the caller's
                // to change, not an outage
                throw new InvalidSearchException("invalid-query", "this search cannot be run as asked; use fewer or shorter words");
            }
            throw new SearchUnavailableException("Elasticsearch refused the search", e);
        } catch (IOException e) {
            throw new SearchUnavailableException("Elasticsearch could not be reached", e);
        } catch (RuntimeException e) {
            // the REST client wraps what is no IOException, such as the wait for one of its pooled connections
            // running out, in a bare RuntimeException: still an outage to the caller, never a 500
            if (isOutage(e)) {
                throw new SearchUnavailableException("Elasticsearch did not answer in time", e);
            }
            throw e;
        }
    }

    /**
     * The fields of a hit that a search answers with: the rest of what is indexed (the name keys in every reading,
     * numbers, e-mail) is for matching, and would be fetched, sent and parsed for nothing.
     */
    static final List<String> HIT_FIELDS = List.of("pid", "uid", "masterUid", "version", "surname", "firstName",
            "patronymic", "birthDate");

    /**
     * The request of one search page: {@code limit + 1} hits in a total order, after {@code after} (the sort values
     * of the last hit before), no total counted, only the fields a hit answers with.
     */
    public static SearchRequest request(String index, SearchCriteria criteria, int limit, List<FieldValue> after) {
        return SearchRequest.of(s -> {
            s.index(index)
                    .query(query(criteria))
                    .size(limit + 1)
                    .trackTotalHits(t -> t.enabled(false))
                    .source(src -> src.filter(f -> f.includes(HIT_FIELDS)))
                    .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                    .sort(o -> o.field(f -> f.field("nameSort").order(SortOrder.Asc).missing("_last")
                            .unmappedType(FieldType.Keyword)))
                    .sort(o -> o.field(f -> f.field("pid").order(SortOrder.Asc)));
            if (after != null) {
                s.searchAfter(after);
            }
            return s;
        });
    }

    /** Closes a scan's point in time; a close that fails costs nothing lasting, it expires by itself. */
    private void closeQuietly(String pit) {
        try {
            client.closePointInTime(c -> c.id(pit));
        } catch (IOException | RuntimeException ignored) {
            // it expires by itself
        }
    }

    /** Name fields must match (prefix, in some reading); numbers and the date filter exactly. */
    public static Query query(SearchCriteria criteria) {
        var bool = new BoolQuery.Builder();
        names(bool, "surnameKey", criteria.surname());
        names(bool, "firstNameKey", criteria.firstName());
        names(bool, "patronymicKey", criteria.patronymic());
        if (criteria.birthDate() != null) {
            bool.filter(f -> f.term(t -> t.field("birthDate").value(criteria.birthDate().toString())));
        }
        if (criteria.phone() != null) {
            bool.filter(f -> f.term(t -> t.field("phones").value(criteria.phone())));
        }
        if (criteria.document() != null) {
            bool.filter(f -> f.term(t -> t.field("documents").value(criteria.document())));
        }
        if (criteria.typed() != null) {
            typed(bool, criteria.typed());
        }
        return Query.of(q -> q.bool(bool.build()));
    }

    private static final List<String> NAME_FIELDS = List.of("surnameKey", "firstNameKey", "patronymicKey");
    private static final float EXACT_SURNAME_BOOST = 4.0f;
    private static final float OTHER_FIELD_BOOST = 0.5f;

    /** The name of the clause that a hit matched when word {@code index} matched in this reading. */
    public static String matchName(int index, NameNormalizer.Source source) {
        return "q" + index + ":" + source.name();
    }

    /**
     * What was typed into the one search box: every word must match. A name word matches when, in some reading,
     * each of its parts begins a key of the surname, first name or patronymic; it scores 2 as typed, 1 with the
     * other keyboard layout (the best reading counts), 4 more when it is a whole surname key (Цой before Цоев), 1 more
     * when the name is written with the letters typed (Ivanov before Иванов for ivanov), 0.5 more when it also begins
     * the first name or patronymic. Numbers match a phone or a document exactly, dates the birth date, ids the pid, uid or master.
     */
    private static void typed(BoolQuery.Builder bool, io.profilestore.core.search.TypedQuery typed) {
        for (int i = 0; i < typed.names().size(); i++) {
            var word = typed.names().get(i);
            var anyReading = new ArrayList<Query>();
            for (var reading : word.readings()) {
                boolean asTyped = reading.source() == NameNormalizer.Source.AS_TYPED;
                var allParts = new BoolQuery.Builder();
                for (var part : reading.words()) {
                    var anyKey = new BoolQuery.Builder().minimumShouldMatch("1");
                    for (String field : NAME_FIELDS) {
                        for (String key : part) {
                            anyKey.should(s -> s.prefix(p -> p.field(field).value(key)));
                        }
                    }
                    allParts.filter(f -> f.bool(anyKey.build()));
                }
                String name = matchName(i, reading.source());
                anyReading.add(Query.of(q -> q.constantScore(c -> c.filter(f -> f.bool(allParts.build()))
                        .boost(asTyped ? 2.0f : 1.0f).queryName(name))));
            }
            bool.must(m -> m.disMax(d -> d.queries(anyReading)));
            exactSurname(bool, word.readings());
            otherNameFields(bool, word.readings());
            asWritten(bool, word.text());
        }
        for (var date : typed.dates()) {
            bool.filter(f -> f.term(t -> t.field("birthDate").value(date.toString())));
        }
        for (var number : typed.numbers()) {
            var either = new BoolQuery.Builder().minimumShouldMatch("1");
            if (number.phone() != null) {
                either.should(s -> s.term(t -> t.field("phones").value(number.phone())));
            }
            if (number.document() != null) {
                either.should(s -> s.term(t -> t.field("documents").value(number.document())));
            }
            bool.filter(f -> f.bool(either.build()));
        }
        for (var id : typed.ids()) {
            var any = new BoolQuery.Builder().minimumShouldMatch("1");
            for (String field : List.of("pid", "uid", "masterUid")) {
                any.should(s -> s.term(t -> t.field(field).value(id.toString())));
            }
            bool.filter(f -> f.bool(any.build()));
        }
        for (var email : typed.emails()) {
            bool.filter(f -> f.term(t -> t.field("email").value(email)));
        }
    }

    /** Some reading matches: each of its words begins one of the name's keys (prefix, on index_prefixes). */
    private static void names(BoolQuery.Builder bool, String field, List<NameNormalizer.Reading> readings) {
        if (readings == null) {
            return;
        }
        var anyReading = new BoolQuery.Builder().minimumShouldMatch("1");
        for (var reading : readings) {
            var allWords = new BoolQuery.Builder()
                    .boost(reading.source() == NameNormalizer.Source.AS_TYPED ? (float) AS_TYPED_BOOST : 1.0f);
            for (var word : reading.words()) {
                var anyKey = new BoolQuery.Builder().minimumShouldMatch("1");
                for (String key : word) {
                    anyKey.should(s -> s.constantScore(c -> c.filter(f -> f.prefix(p -> p.field(field).value(key)))));
                }
                allWords.must(m -> m.bool(anyKey.build()));
            }
            anyReading.should(s -> s.bool(allWords.build()));
        }
        bool.must(m -> m.bool(anyReading.build()));
    }

    /**
     * A word that also begins the first name or patronymic scores a little more: Пётр begins Петров too, and
     * Петров Пётр should come before Петров Алексей; Иванова О. И. before Иванова Ольга Петровна.
     */
    private static void otherNameFields(BoolQuery.Builder bool, List<NameNormalizer.Reading> readings) {
        var other = new ArrayList<Query>();
        for (var reading : readings) {
            if (reading.words().size() == 1) {
                for (String field : List.of("firstNameKey", "patronymicKey")) {
                    for (String key : reading.words().get(0)) {
                        other.add(Query.of(q -> q.constantScore(c -> c.filter(f -> f.prefix(p -> p.field(field).value(key)))
                                .boost(OTHER_FIELD_BOOST))));
                    }
                }
            }
        }
        if (!other.isEmpty()) {
            bool.should(s -> s.disMax(d -> d.queries(other)));
        }
    }

    /**
     * A name written as it was typed (the same letters, in any case) scores more than one found through its
     * transliteration: {@code ivanov} finds Ivanov before Иванов, {@code иванов} Иванов before Ivanov. The name's
     * {@code asWritten} fields hold its words as stored, split and lowercased like this (Elasticsearch's simple
     * analyzer: runs of letters); documents indexed before the field existed just miss the bonus until indexed again.
     */
    private static void asWritten(BoolQuery.Builder bool, String typed) {
        var parts = NOT_LETTERS.split(typed.toLowerCase(Locale.ROOT));
        var allParts = new BoolQuery.Builder();
        int count = 0;
        for (String part : parts) {
            if (part.isEmpty()) {
                continue;
            }
            var anyField = new BoolQuery.Builder().minimumShouldMatch("1");
            for (String field : AS_WRITTEN_FIELDS) {
                anyField.should(s -> s.prefix(p -> p.field(field).value(part)));
            }
            allParts.filter(f -> f.bool(anyField.build()));
            count++;
        }
        if (count > 0) {
            bool.should(s -> s.constantScore(c -> c.filter(f -> f.bool(allParts.build())).boost(AS_WRITTEN_BOOST)));
        }
    }

    private static final java.util.regex.Pattern NOT_LETTERS = java.util.regex.Pattern.compile("\\P{L}+");
    private static final List<String> AS_WRITTEN_FIELDS = List.of("surname.asWritten", "firstName.asWritten",
            "patronymic.asWritten");
    private static final float AS_WRITTEN_BOOST = 1.0f;

    /** A whole surname scores more than a longer one it begins (Цой before Цоев). */
    private static void exactSurname(BoolQuery.Builder bool, List<NameNormalizer.Reading> readings) {
        var exact = new ArrayList<Query>();
        for (var reading : readings) {
            if (reading.words().size() == 1) {
                for (String key : reading.words().get(0)) {
                    exact.add(Query.of(q -> q.constantScore(c -> c.filter(f -> f.term(t -> t.field("surnameKey").value(key)))
                            .boost(EXACT_SURNAME_BOOST))));
                }
            }
        }
        if (!exact.isEmpty()) {
            bool.should(s -> s.disMax(d -> d.queries(exact)));
        }
    }

    /** Where the next page starts: the sort values of the last hit (sealed by the caller before it leaves). */
    record Cursor(List<FieldValue> after) {
        private static final ObjectMapper JSON = new ObjectMapper();

        String encode() {
            var node = JSON.createObjectNode();
            var values = node.putArray("after");
            for (var value : after) {
                if (value.isDouble()) {
                    values.add(value.doubleValue());
                } else if (value.isLong()) {
                    values.add(value.longValue());
                } else if (value.isString()) {
                    values.add(value.stringValue());
                } else {
                    values.addNull();
                }
            }
            return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String text) {
            try {
                var node = JSON.readTree(Base64.getUrlDecoder().decode(text));
                var after = new ArrayList<FieldValue>();
                for (var value : node.path("after")) {
                    after.add(value.isNull() ? FieldValue.NULL
                            : value.isFloatingPointNumber() ? FieldValue.of(value.doubleValue())
                            : value.isIntegralNumber() ? FieldValue.of(value.longValue())
                            : FieldValue.of(value.asText()));
                }
                if (after.isEmpty()) {
                    throw new IllegalArgumentException("incomplete cursor");
                }
                return new Cursor(after);
            } catch (IOException | IllegalArgumentException e) {
                throw new InvalidSearchException("invalid-query", "cursor is not a cursor this service gave out");
            }
        }
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
    public java.util.Optional<String> nextIndex() throws IOException {
        String next = ElasticsearchSchema.nextAlias(alias);
        if (!client.indices().existsAlias(a -> a.name(next)).value()) {
            return java.util.Optional.empty();
        }
        return client.indices().getAlias(a -> a.name(next)).aliases().keySet().stream().findFirst();
    }

    /**
     * Moves the alias from one generation to the next in one atomic step, and ends the next alias: searches
     * switch without a moment of no index, and writes go to the new generation only.
     */
    public void swap(String from, String to) throws IOException {
        String next = ElasticsearchSchema.nextAlias(alias);
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

    /** What the index holds of a profile: its version (in the document) and the external version it was written with. */
    public record Indexed(long version, long external) {
    }

    /** Every profile the index behind the alias holds, with its versions: a scan through a point in time. */
    public java.util.Map<UUID, Indexed> versions() throws IOException {
        var versions = new java.util.HashMap<UUID, Indexed>();
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
                }, com.fasterxml.jackson.databind.JsonNode.class);
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

    /** The versions the index behind the alias holds of these profiles (absent: not indexed). */
    public java.util.Map<UUID, Indexed> versionsOf(java.util.Collection<UUID> pids) throws IOException {
        var versions = new java.util.HashMap<UUID, Indexed>();
        if (pids.isEmpty()) {
            return versions;
        }
        var response = client.mget(m -> m.index(alias).ids(pids.stream().map(UUID::toString).toList())
                .sourceIncludes("version"), com.fasterxml.jackson.databind.JsonNode.class);
        for (var doc : response.docs()) {
            if (doc.isResult() && doc.result().found()) {
                versions.put(UUID.fromString(doc.result().id()), indexed(doc.result().source(), doc.result().version()));
            }
        }
        return versions;
    }

    private static Indexed indexed(com.fasterxml.jackson.databind.JsonNode source, Long external) {
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
