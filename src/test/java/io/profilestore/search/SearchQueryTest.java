package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import co.elastic.clients.elasticsearch._types.FieldValue;
import co.elastic.clients.json.JsonpSerializable;
import co.elastic.clients.json.JsonpUtils;
import co.elastic.clients.json.jackson.JacksonJsonpMapper;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a search asks of Elasticsearch, read from the request's JSON as the client sends it; no index involved. */
class SearchQueryTest {

    static final NameNormalizer NAMES = NameNormalizer.standard();
    static final ObjectMapper JSON = new ObjectMapper();
    static final NumberKeys KEYS = MatchQueryTest.KEYS;

    static JsonNode json(JsonpSerializable request) {
        try {
            return JSON.readTree(JsonpUtils.toJsonString(request, new JacksonJsonpMapper()));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static SearchCriteria surname(String typed) {
        return new SearchCriteria(NAMES.queryReadings(typed), null, null, null, null, null, null);
    }

    static SearchCriteria typed(String q) {
        return new SearchCriteria(null, null, null, null, null, null, TypedQuery.parse(q, NAMES));
    }

    /** The readings of a name field's clause: each its boost and, per word, the keys one of which it must begin. */
    static List<String> readings(JsonNode nameClause, String field) {
        var readings = new ArrayList<String>();
        for (var reading : nameClause.path("bool").path("should")) {
            var words = new ArrayList<List<String>>();
            for (var word : reading.path("bool").path("must")) {
                var keys = new ArrayList<String>();
                for (var key : word.path("bool").path("should")) {
                    keys.add(key.path("constant_score").path("filter").path("prefix").path(field).path("value").asText());
                }
                words.add(keys);
            }
            readings.add(reading.path("bool").path("boost").asDouble() + " " + words);
        }
        return readings;
    }

    @Test
    void aSurnameIsAPrefixOfAnyOfItsRomanizationsAndScoresMoreAsTyped() {
        var query = json(SearchQuery.query(surname("shcherb"), KEYS));

        assertThat(readings(query.path("bool").path("must").path(0), "surnameKey"))
                .as("shch is щ or шх, as typed (scores 2); read as keys of the Cyrillic layout, ирсруки (scores 1)")
                .containsExactly("2.0 [[шхиерб, щиерб]]", "1.0 [[ирсруки]]");
    }

    @Test
    void ёIsAskedForAsЕ() {
        var withЁ = readings(json(SearchQuery.query(surname("Семёнов"), KEYS)).path("bool").path("must").path(0), "surnameKey");
        var withЕ = readings(json(SearchQuery.query(surname("Семенов"), KEYS)).path("bool").path("must").path(0), "surnameKey");

        // as typed, that is: with the other layout ё and е are other keys (` and t), and read otherwise
        assertThat(withЁ.get(0)).isEqualTo(withЕ.get(0)).isEqualTo("2.0 [[сиемиенов]]");
    }

    @Test
    void aNameTypedWithTheWrongLayoutIsAlsoAskedForInTheOther() {
        var query = json(SearchQuery.query(typed("Bdfyjd"), KEYS));

        var readings = query.path("bool").path("must").path(0).path("dis_max").path("queries");
        assertThat(readings).hasSize(2);
        var asTyped = readings.path(0).path("constant_score");
        var otherLayout = readings.path(1).path("constant_score");
        assertThat(asTyped.path("_name").asText()).isEqualTo(SearchQuery.matchName(0, NameNormalizer.Source.AS_TYPED));
        assertThat(asTyped.path("boost").asDouble()).isEqualTo(2.0);
        assertThat(otherLayout.path("_name").asText())
                .isEqualTo(SearchQuery.matchName(0, NameNormalizer.Source.LATIN_LAYOUT));
        assertThat(otherLayout.path("boost").asDouble()).isEqualTo(1.0);
        assertThat(otherLayout.findValuesAsText("value")).as("иванов, in any of the three names")
                .containsExactly("иванов", "иванов", "иванов");
        assertThat(otherLayout.findValues("prefix")).extracting(prefix -> prefix.fieldNames().next())
                .containsExactly("surnameKey", "firstNameKey", "patronymicKey");
    }

    @Test
    void aWholeSurnameAndTheLettersAsTypedScoreMore() {
        var bonuses = json(SearchQuery.query(typed("Bdfyjd"), KEYS)).path("bool").path("should");

        assertThat(bonuses.path(0).findValues("term")).as("a whole surname key, in either reading")
                .extracting(term -> term.path("surnameKey").path("value").asText())
                .containsExactly("бдфид", "иванов");
        assertThat(bonuses.path(2).path("constant_score").findValues("prefix"))
                .as("the word as written, in any name").hasSize(3)
                .allSatisfy(prefix -> assertThat(prefix.findValuesAsText("value")).containsExactly("bdfyjd"));
    }

    @Test
    void numbersAndTheBirthDateFilterExactly() {
        var criteria = new SearchCriteria(null, null, null, LocalDate.of(1985, 3, 7), "79123456789", "4500123456", null);

        var bool = json(SearchQuery.query(criteria, KEYS)).path("bool");

        assertThat(bool.has("must")).as("nothing to score").isFalse();
        // numbers by their keyed hashes only: the request, like the index, holds no number
        assertThat(bool.path("filter").toString()).isEqualTo("[{\"term\":{\"birthDate\":{\"value\":\"1985-03-07\"}}},"
                + "{\"terms\":{\"phoneHashes\":[\"" + KEYS.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0) + "\"]}},"
                + "{\"terms\":{\"documentHashes\":[\"" + KEYS.hashes(NumberKeys.Kind.DOCUMENT, "4500123456").get(0)
                + "\"]}}]");
        assertThat(bool.toString()).doesNotContain("79123456789", "4500123456");
    }

    @Test
    void duringARotationANumberIsAskedForUnderEveryKey() {
        var rotating = NumberKeys.parse("k2:" + "b".repeat(43) + "=,k1:" + "a".repeat(43) + "=");
        var criteria = new SearchCriteria(null, null, null, null, "79123456789", null, TypedQuery.parse("a@b.example", NAMES));

        var filter = json(SearchQuery.query(criteria, rotating)).path("bool").path("filter");

        var phones = filter.get(0).path("terms").path("phoneHashes");
        assertThat(phones).hasSize(2);
        assertThat(phones.get(0).asText()).startsWith("k2:");
        // the old key's hash is the very one a document indexed with the old key alone holds
        assertThat(phones.get(1).asText()).isEqualTo(KEYS.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0));
        assertThat(filter.get(1).path("terms").path("emailHashes")).hasSize(2);
        assertThat(filter.toString()).doesNotContain("a@b.example");
    }

    @Test
    void aTypedNumberIsAPhoneOrADocument() {
        var filter = json(SearchQuery.query(typed("+7 912 345-67-89"), KEYS)).path("bool").path("filter");

        assertThat(filter.toString()).isEqualTo("[{\"bool\":{\"minimum_should_match\":\"1\",\"should\":["
                + "{\"terms\":{\"phoneHashes\":[\"" + KEYS.hashes(NumberKeys.Kind.PHONE, "79123456789").get(0) + "\"]}},"
                + "{\"terms\":{\"documentHashes\":[\"" + KEYS.hashes(NumberKeys.Kind.DOCUMENT, "79123456789").get(0)
                + "\"]}}]}}]");
    }

    @Test
    void aPageAsksForOneHitMoreInATotalOrderAndOnlyTheFieldsAHitAnswersWith() {
        var request = json(SearchQuery.request("profiles", surname("Иванов"), KEYS, 20, null));

        assertThat(request.path("size").asInt()).isEqualTo(21);
        assertThat(request.path("track_total_hits").asBoolean(true)).isFalse();
        assertThat(request.path("sort").toString()).isEqualTo("[{\"_score\":{\"order\":\"desc\"}},"
                + "{\"nameSort\":{\"missing\":\"_last\",\"order\":\"asc\",\"unmapped_type\":\"keyword\"}},"
                + "{\"pid\":{\"order\":\"asc\"}}]");
        var fields = new ArrayList<String>();
        request.path("_source").path("includes").forEach(field -> fields.add(field.asText()));
        assertThat(fields).containsExactlyElementsOf(SearchQuery.HIT_FIELDS);
        assertThat(request.has("search_after")).as("a first page").isFalse();
    }

    @Test
    void theNextPageStartsAfterTheSortValuesItsCursorCarries() {
        var lastHit = List.of(FieldValue.of(3.5), FieldValue.NULL, FieldValue.of("0b7f6c1e-3a5d-4c1e-9f0a-2b3c4d5e6f70"));
        var cursor = PageCursor.decode(new PageCursor(lastHit).encode());

        var request = json(SearchQuery.request("profiles", surname("Иванов"), KEYS, 20, cursor.after()));

        assertThat(request.path("search_after").toString())
                .as("score, a hit without a name (sorted last), pid")
                .isEqualTo("[3.5,null,\"0b7f6c1e-3a5d-4c1e-9f0a-2b3c4d5e6f70\"]");
    }

    @Test
    void aWholeSurnameAsTheWordReadsScoresMoreThanThroughAnotherRomanization() {
        // Strelcov is Стрельцов (c is ц in ISO 9) and, read informally, Стрелков: the likelier reading ranks first
        var exact = json(SearchQuery.query(typed("Strelcov"), KEYS)).path("bool").path("should").path(0);

        var boosts = new ArrayList<String>();
        for (var key : exact.path("dis_max").path("queries")) {
            boosts.add(key.findValue("value").asText() + " " + key.path("constant_score").path("boost").asDouble());
        }
        assertThat(boosts).contains("стриелцов 4.0", "стриелков 3.5");
    }
}
