package io.profilestore.core.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import java.util.List;

/**
 * The Elasticsearch request that finds the profiles of other users that share a ground with a profile: a document
 * number, a phone, an e-mail (all as the index normalizes them), or a surname, a first name and a birth date together,
 * the names compared by their keys, so that any alphabet or romanization meets (Ivanova and Иванова). Each ground is
 * a named query: the hits say which grounds they matched. Pure: the index gateway sends it.
 */
public final class MatchQuery {

    /** The grounds, as the answer names them. */
    public static final String DOCUMENT = "document";
    public static final String PHONE = "phone";
    public static final String EMAIL = "email";
    public static final String NAME_AND_BIRTH_DATE = "name-and-birth-date";

    /** Profiles looked at, at most: far more than the users answered, since one user may hold several. */
    static final int HITS = 50;
    static final List<String> HIT_FIELDS = List.of("pid", "uid");

    private MatchQuery() {
    }

    /** Whether the profile holds a ground at all: without one, nothing can match it. */
    public static boolean hasGrounds(ProfileDocument profile) {
        return profile.documents() != null || profile.phones() != null || profile.email() != null || hasName(profile);
    }

    public static SearchRequest request(String index, ProfileDocument profile) {
        var bool = new BoolQuery.Builder();
        terms(bool, "documents", profile.documents(), DOCUMENT);
        terms(bool, "phones", profile.phones(), PHONE);
        if (profile.email() != null) {
            bool.should(s -> s.term(t -> t.field("email").value(profile.email()).queryName(EMAIL)));
        }
        if (hasName(profile)) {
            bool.should(s -> s.bool(b -> b
                    .filter(f -> f.terms(t -> t.field("surnameKey").terms(v -> v.value(values(profile.surnameKey())))))
                    .filter(f -> f.terms(t -> t.field("firstNameKey").terms(v -> v.value(values(profile.firstNameKey())))))
                    .filter(f -> f.term(t -> t.field("birthDate").value(profile.birthDate().toString())))
                    .queryName(NAME_AND_BIRTH_DATE)));
        }
        bool.minimumShouldMatch("1");
        // the profile's own user, and so its own other profiles, are no match of it
        bool.mustNot(n -> n.term(t -> t.field("uid").value(profile.uid().toString())));
        bool.mustNot(n -> n.term(t -> t.field("pid").value(profile.pid().toString())));
        return SearchRequest.of(s -> s.index(index)
                .query(Query.of(q -> q.bool(bool.build())))
                .size(HITS)
                .trackTotalHits(t -> t.enabled(false))
                .source(src -> src.filter(f -> f.includes(HIT_FIELDS))));
    }

    private static boolean hasName(ProfileDocument profile) {
        return profile.surnameKey() != null && profile.firstNameKey() != null && profile.birthDate() != null;
    }

    private static void terms(BoolQuery.Builder bool, String field, List<String> values, String ground) {
        if (values != null) {
            bool.should(s -> s.terms(t -> t.field(field).terms(v -> v.value(values(values))).queryName(ground)));
        }
    }

    private static List<FieldValue> values(List<String> values) {
        return values.stream().map(FieldValue::of).toList();
    }
}
