package io.profilestore.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.mapping.FieldType;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The Elasticsearch request of one search page, built from the criteria. Pure: it only builds the request, the
 * index gateway sends it.
 */
public final class SearchQuery {

    /**
     * The fields of a hit that a search answers with: the rest of what is indexed (the name keys in every reading,
     * numbers, e-mail) is for matching, and would be fetched, sent and parsed for nothing.
     */
    static final List<String> HIT_FIELDS = List.of("pid", "uid", "masterUid", "version", "surname", "firstName",
            "patronymic", "birthDate");

    private static final double AS_TYPED_BOOST = 2.0;
    private static final List<String> NAME_FIELDS = List.of("surnameKey", "firstNameKey", "patronymicKey");
    private static final float EXACT_SURNAME_BOOST = 4.0f;
    /** A whole surname only through another romanization's reading of the word (latin-variants.txt). */
    private static final float EXACT_SURNAME_OTHER_READING_BOOST = 3.5f;
    private static final float OTHER_FIELD_BOOST = 0.5f;
    private static final Pattern NOT_LETTERS = Pattern.compile("\\P{L}+");
    private static final List<String> AS_WRITTEN_FIELDS = List.of("surname.asWritten", "firstName.asWritten",
            "patronymic.asWritten");
    private static final float AS_WRITTEN_BOOST = 1.0f;

    private SearchQuery() {
    }

    /**
     * The request of one search page: {@code limit + 1} hits in a total order, after {@code after} (the sort values
     * of the last hit before), no total counted, only the fields a hit answers with.
     */
    public static SearchRequest request(String index, SearchCriteria criteria, NumberKeys keys, int limit,
            List<FieldValue> after) {
        return SearchRequest.of(s -> {
            s.index(index)
                    .query(query(criteria, keys))
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

    /**
     * Name fields must match (prefix, in some reading); numbers and the date filter exactly, numbers by their hash
     * under any of the keys (the index holds no number).
     */
    public static Query query(SearchCriteria criteria, NumberKeys keys) {
        var bool = new BoolQuery.Builder();
        names(bool, "surnameKey", criteria.surname());
        names(bool, "firstNameKey", criteria.firstName());
        names(bool, "patronymicKey", criteria.patronymic());
        if (criteria.birthDate() != null) {
            bool.filter(f -> f.term(t -> t.field("birthDate").value(criteria.birthDate().toString())));
        }
        if (criteria.phone() != null) {
            bool.filter(hashed("phoneHashes", keys.hashes(NumberKeys.Kind.PHONE, criteria.phone())));
        }
        if (criteria.document() != null) {
            bool.filter(hashed("documentHashes", keys.hashes(NumberKeys.Kind.DOCUMENT, criteria.document())));
        }
        if (criteria.typed() != null) {
            typed(bool, criteria.typed(), keys);
        }
        return Query.of(q -> q.bool(bool.build()));
    }

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
    private static void typed(BoolQuery.Builder bool, TypedQuery typed, NumberKeys keys) {
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
                either.should(hashed("phoneHashes", keys.hashes(NumberKeys.Kind.PHONE, number.phone())));
            }
            if (number.document() != null) {
                either.should(hashed("documentHashes", keys.hashes(NumberKeys.Kind.DOCUMENT, number.document())));
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
            bool.filter(hashed("emailHashes", keys.hashes(NumberKeys.Kind.EMAIL, email)));
        }
    }

    /** Any of a value's hashes, one under each key: found whichever key indexed it. */
    static Query hashed(String field, List<String> hashes) {
        var values = hashes.stream().map(FieldValue::of).toList();
        return Query.of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values))));
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

    /**
     * A whole surname scores more than a longer one it begins (Цой before Цоев); a little less when only another
     * romanization's reading of the word makes it whole (Strelcov is Стрельцов before Стрелков, c read as к).
     */
    private static void exactSurname(BoolQuery.Builder bool, List<NameNormalizer.Reading> readings) {
        var exact = new ArrayList<Query>();
        for (var reading : readings) {
            if (reading.words().size() == 1) {
                for (String key : reading.words().get(0)) {
                    float boost = reading.primary().get(0).contains(key) ? EXACT_SURNAME_BOOST
                            : EXACT_SURNAME_OTHER_READING_BOOST;
                    exact.add(Query.of(q -> q.constantScore(c -> c.filter(f -> f.term(t -> t.field("surnameKey").value(key)))
                            .boost(boost))));
                }
            }
        }
        if (!exact.isEmpty()) {
            bool.should(s -> s.disMax(d -> d.queries(exact)));
        }
    }
}
