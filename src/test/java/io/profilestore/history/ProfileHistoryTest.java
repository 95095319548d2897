package io.profilestore.history;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.testing.ProfileApiOverTwins;
import io.profilestore.testing.ProfileApiOverTwins.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A profile's history over HTTP, on the real service and write path over the twins: every change keeps the version it
 * makes with its kind, pages go newest first behind a sealed cursor, one version reads as it was, an as-of read
 * answers the profile as it stood, and an erased pid created again goes on from its erase. Against the real stack:
 * {@code ProfileHistoryIT}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileHistoryTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    @Test
    void everyChangeKeepsTheVersionItMakesWithItsKindNewestFirst() {
        var created = API.create("{\"surname\": \"Иванов\"}");
        var pid = created.pid();
        var uid = UUID.fromString(created.json().path("uid").asText());
        var other = UUID.fromString(API.create("{}").json().path("uid").asText());
        API.patch(pid, "\"1\"", "{\"firstName\": \"Иван\"}");
        API.put(pid, "\"2\"", "{\"surname\": \"Петров\"}");
        assertThat(API.move(pid, "\"3\"", other).status()).isEqualTo(200);
        assertThat(API.delete(pid, "\"4\"").status()).isEqualTo(204);

        var versions = versions(pid, Map.of());
        assertThat(versions.status()).as(versions.body()).isEqualTo(200);
        var items = items(versions.json());
        assertThat(items).extracting(item -> item.path("version").asLong(), item -> item.path("kind").asText())
                .containsExactly(tuple(5L, "erased"), tuple(4L, "moved"),
                        tuple(3L, "replaced"), tuple(2L, "patched"),
                        tuple(1L, "created"));
        assertThat(items.get(0).has("data")).as("an erase holds no data").isFalse();
        assertThat(items.get(1).path("uid").asText()).isEqualTo(other.toString());
        assertThat(items.get(2).path("uid").asText()).isEqualTo(uid.toString());
        assertThat(items.get(3).path("data").toString()).isEqualTo("{\"surname\":\"Иванов\",\"firstName\":\"Иван\"}");
        assertThat(items.get(4).path("data").toString()).isEqualTo("{\"surname\":\"Иванов\"}");
        assertThat(items.get(4).path("changedBy").asText()).isEqualTo(created.header("Request-Id"));
        assertThat(versions.json().has("next")).isFalse();

        assertProblem(API.get(pid), 404, "profile-not-found");
        var second = API.send("GET", "/v1/profiles/" + pid + "/versions/2", null, null, Map.of());
        assertThat(second.status()).as(second.body()).isEqualTo(200);
        assertThat(second.json().path("data").toString()).isEqualTo(items.get(3).path("data").toString());
        assertProblem(API.send("GET", "/v1/profiles/" + pid + "/versions/6", null, null, Map.of()), 404,
                "version-not-found");
        assertProblem(API.send("GET", "/v1/profiles/" + pid + "/versions/x", null, null, Map.of()), 400, "bad-request");
        // a version is an int64 (the OpenAPI document): one past 2^31 is one the profile never had, not a bad request
        assertProblem(API.send("GET", "/v1/profiles/" + pid + "/versions/2147483648", null, null, Map.of()), 404,
                "version-not-found");
        assertProblem(versions(UUID.randomUUID(), Map.of()), 404, "profile-not-found");
    }

    @Test
    void aProfileCreatedAgainAtAnErasedPidGoesOnFromTheErase() {
        var pid = UUID.randomUUID();
        assertThat(API.createAt(pid, "{\"data\": {\"n\": 1}}").etag()).isEqualTo("\"1\"");
        assertThat(API.delete(pid, "\"1\"").status()).isEqualTo(204);

        var again = API.createAt(pid, "{\"data\": {\"n\": 2}}");

        assertThat(again.status()).as(again.body()).isEqualTo(201);
        assertThat(again.etag()).as("the erase was version 2").isEqualTo("\"3\"");
        assertProblem(API.put(pid, "\"1\"", "{\"n\": 3}"), 412, "stale-version");
        assertThat(items(versions(pid, Map.of()).json())).extracting(item -> item.path("kind").asText())
                .containsExactly("created", "erased", "created");
    }

    @Test
    void versionsArePagedNewestFirstBehindACursorForThatProfileOnly() {
        var pid = API.create("{\"n\": 1}").pid();
        for (int version = 1; version <= 4; version++) {
            API.patch(pid, "\"" + version + "\"", "{\"n\": " + (version + 1) + "}");
        }
        var seen = new ArrayList<Long>();
        String cursor = null;
        int pages = 0;
        do {
            var page = versions(pid, cursor == null ? Map.of("limit", "2") : Map.of("limit", "2", "cursor", cursor));
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            items(page.json()).forEach(item -> seen.add(item.path("version").asLong()));
            cursor = page.json().has("next") ? page.json().path("next").asText() : null;
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(seen).containsExactly(5L, 4L, 3L, 2L, 1L);
        assertThat(pages).isEqualTo(3);

        var first = versions(pid, Map.of("limit", "2")).json().path("next").asText();
        var another = API.create("{}").pid();
        assertProblem(versions(another, Map.of("cursor", first)), 400, "invalid-query");
        assertProblem(versions(pid, Map.of("cursor", "x" + first)), 400, "invalid-query");
        assertProblem(versions(pid, Map.of("limit", "0")), 400, "invalid-query");
        assertProblem(versions(pid, Map.of("limit", "101")), 400, "invalid-query");
    }

    @Test
    void anAsOfReadAnswersTheProfileAsItStoodThen() {
        var created = API.create("{\"n\": 1}");
        var pid = created.pid();
        API.patch(pid, "\"1\"", "{\"n\": 2}");

        var before = asOf(pid, "2000-01-01T00:00:00Z");
        var now = asOf(pid, "2999-01-01T03:00:00+03:00");

        assertProblem(before, 404, "profile-not-found");
        assertThat(now.status()).as(now.body()).isEqualTo(200);
        assertThat(now.etag()).isEqualTo("\"2\"");
        assertThat(now.json()).isEqualTo(API.get(pid).json());
        assertProblem(asOf(pid, "yesterday"), 400, "bad-request");
        assertThat(API.delete(pid, "\"2\"").status()).isEqualTo(204);
        assertProblem(asOf(pid, "2999-01-01T00:00:00Z"), 404, "profile-not-found");
    }

    @Test
    void aPersonsReadOfVersionsIsRecordedWithThePid() {
        var pid = API.create("{\"n\": 1}").pid();

        assertThat(versions(pid, Map.of()).status()).isEqualTo(200);
        assertThat(API.lookUps.recorded()).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("GET /v1/profiles/{pid}/versions");
            assertThat(entry.pids()).containsExactly(pid);
        });
        assertThat(API.send("GET", "/v1/profiles/" + pid + "/versions/1", null, null, Map.of()).status()).isEqualTo(200);
        assertThat(API.lookUps.recorded()).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("GET /v1/profiles/{pid}/versions/{version}");
            assertThat(entry.pids()).containsExactly(pid);
        });
    }

    @Test
    void aPurgeRemovesAnErasedProfilesVersionsAndErasesOneThatStandsOnlyWhenToldAtItsVersion() {
        var erased = API.create("{\"n\": 1}").pid();
        assertThat(API.delete(erased, "\"1\"").status()).isEqualTo(204);
        var standing = API.create("{\"n\": 1}").pid();
        API.patch(standing, "\"1\"", "{\"n\": 2}");

        assertThat(purge(erased, Map.of(), Map.of()).status()).isEqualTo(204);
        var left = items(versions(erased, Map.of()).json());
        assertThat(left).as("one version of the purge's own, holding nothing of the person").singleElement()
                .satisfies(purged -> {
                    assertThat(purged.path("version").asLong()).isEqualTo(3);
                    assertThat(purged.path("kind").asText()).isEqualTo("purged");
                    assertThat(purged.has("data")).isFalse();
                    assertThat(purged.has("uid")).isFalse();
                });
        assertProblem(API.send("GET", "/v1/profiles/" + erased + "/versions/1", null, null, Map.of()), 404,
                "version-not-found");
        assertProblem(asOf(erased, "2999-01-01T00:00:00Z"), 404, "profile-not-found");
        assertThat(API.createAt(erased, "{\"data\": {\"n\": 9}}").etag()).as("the numbering goes on").isEqualTo("\"4\"");

        assertProblem(purge(standing, Map.of(), Map.of()), 409, "profile-not-erased");
        assertProblem(purge(standing, Map.of("erase", "true"), Map.of()), 428, "precondition-required");
        assertProblem(purge(standing, Map.of("erase", "true"), Map.of("If-Match", "\"1\"")), 412, "stale-version");
        assertThat(items(versions(standing, Map.of()).json())).hasSize(2);
        assertThat(purge(standing, Map.of("erase", "true"), Map.of("If-Match", "\"2\"")).status()).isEqualTo(204);
        assertProblem(API.get(standing), 404, "profile-not-found");
        assertThat(items(versions(standing, Map.of()).json())).extracting(v -> v.path("kind").asText())
                .containsExactly("purged");
        assertProblem(purge(UUID.randomUUID(), Map.of(), Map.of()), 404, "profile-not-found");
        assertThat(API.stores.outbox.records()).filteredOn(record -> record.entityId().equals(standing)).isNotEmpty().last()
                .satisfies(record -> assertThat(record.erased()).as("the index is told to forget it").isTrue());
    }

    private static Reply purge(UUID pid, Map<String, String> query, Map<String, String> headers) {
        return API.send("DELETE", "/v1/profiles/" + pid + "/versions", query, null, null, headers);
    }

    private static Reply versions(UUID pid, Map<String, String> query) {
        return API.send("GET", "/v1/profiles/" + pid + "/versions", query, null, null, Map.of());
    }

    private static Reply asOf(UUID pid, String at) {
        return API.send("GET", "/v1/profiles/" + pid, Map.of("asOf", at), null, null, Map.of());
    }

    private static List<JsonNode> items(JsonNode page) {
        var items = StreamSupport.stream(page.path("items").spliterator(), false).toList();
        assertThat(items).isNotEmpty();
        return items;
    }
}
