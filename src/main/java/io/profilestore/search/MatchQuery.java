package io.profilestore.search;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.elasticsearch._types.SortOrder;
import co.elastic.clients.elasticsearch._types.query_dsl.BoolQuery;
import co.elastic.clients.elasticsearch._types.query_dsl.Query;
import co.elastic.clients.elasticsearch.core.SearchRequest;
import java.util.List;
import java.util.Map;

/**
 * The Elasticsearch request that finds the profiles of other users that share a ground with a profile: a document
 * number, a phone, an e-mail (all as the index normalizes them), or a surname, a first name and a birth date together,
 * the names compared by their keys, so that any alphabet or romanization meets (Ivanova and Иванова). Each ground is
 * a named query: the hits say which grounds they matched. Each scores its weight whatever else matched
 * ({@code constant_score}), so the hits come strongest first and a placeholder phone or e-mail shared by many profiles
 * cannot push a document's or a name's match out of the {@link #HITS} looked at. Pure: the index gateway sends it.
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
        return profile.documentHashes() != null || profile.phoneHashes() != null || profile.emailHashes() != null
                || hasName(profile);
    }

    /** @param weights each ground's weight, what its clause scores */
    public static SearchRequest request(String index, ProfileDocument profile, Map<String, Double> weights) {
        var bool = new BoolQuery.Builder();
        // the profile's hashes under every key: those the index holds, whichever key indexed the others
        if (profile.documentHashes() != null) {
            ground(bool, DOCUMENT, weights, terms("documentHashes", profile.documentHashes()));
        }
        if (profile.phoneHashes() != null) {
            ground(bool, PHONE, weights, terms("phoneHashes", profile.phoneHashes()));
        }
        if (profile.emailHashes() != null) {
            ground(bool, EMAIL, weights, terms("emailHashes", profile.emailHashes()));
        }
        if (hasName(profile)) {
            ground(bool, NAME_AND_BIRTH_DATE, weights, Query.of(q -> q.bool(b -> b
                    .filter(terms("surnameKey", profile.surnameKey()))
                    .filter(terms("firstNameKey", profile.firstNameKey()))
                    .filter(f -> f.term(t -> t.field("birthDate").value(profile.birthDate().toString()))))));
        }
        bool.minimumShouldMatch("1");
        // the profile's own user, and so its own other profiles, are no match of it
        bool.mustNot(n -> n.term(t -> t.field("uid").value(profile.uid().toString())));
        bool.mustNot(n -> n.term(t -> t.field("pid").value(profile.pid().toString())));
        return SearchRequest.of(s -> s.index(index)
                .query(Query.of(q -> q.bool(bool.build())))
                .size(HITS)
                .trackTotalHits(t -> t.enabled(false))
                .sort(o -> o.score(sc -> sc.order(SortOrder.Desc)))
                .sort(o -> o.field(f -> f.field("pid").order(SortOrder.Asc)))
                .source(src -> src.filter(f -> f.includes(HIT_FIELDS))));
    }

    private static boolean hasName(ProfileDocument profile) {
        return profile.surnameKey() != null && profile.firstNameKey() != null && profile.birthDate() != null;
    }

    private static void ground(BoolQuery.Builder bool, String ground, Map<String, Double> weights, Query filter) {
        bool.should(s -> s.constantScore(c -> c.filter(filter).boost(weights.get(ground).floatValue()).queryName(ground)));
    }

    private static Query terms(String field, List<String> values) {
        return Query.of(q -> q.terms(t -> t.field(field).terms(v -> v.value(values(values)))));
    }

    private static List<FieldValue> values(List<String> values) {
        return values.stream().map(FieldValue::of).toList();
    }
}
