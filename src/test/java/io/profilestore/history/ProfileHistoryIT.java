package io.profilestore.history;

import static io.profilestore.testing.Api.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A profile's history on the real stack, authentication on: every kind of change keeps its version in Cassandra, an
 * operator reads them (and is audited for it), and an as-of read answers the version current at each moment.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileHistoryIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));

    @Test
    void everyKindOfChangeKeepsItsVersionAndAnAsOfReadAnswersTheOneCurrentThen() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var admin = platform.as(TestAuth.ADMIN);
        var operator = platform.as(TestAuth.OPERATOR);
        var created = platform.create("{\"surname\": \"Историева\"}");
        var pid = created.pid();
        var home = UUID.fromString(created.json().path("uid").asText());
        var target = UUID.fromString(platform.create("{}").json().path("uid").asText());
        var elsewhere = UUID.fromString(platform.create("{}").json().path("uid").asText());
        assertThat(platform.patch(pid, "\"1\"", "{\"firstName\": \"Анна\"}").status()).isEqualTo(200);
        assertThat(admin.merge(target, home).status()).isEqualTo(200);
        assertThat(admin.unmerge(target, home).status()).isEqualTo(200);
        assertThat(platform.move(pid, "\"4\"", elsewhere).status()).isEqualTo(200);
        assertThat(platform.delete(pid, "\"5\"").status()).isEqualTo(204);

        var page = operator.send("GET", "/v1/profiles/" + pid + "/versions", null, null, Map.of());

        assertThat(page.status()).as(page.body()).isEqualTo(200);
        var items = StreamSupport.stream(page.json().path("items").spliterator(), false).toList();
        assertThat(items).extracting(item -> item.path("kind").asText())
                .containsExactly("erased", "moved", "unmerged", "merged", "patched", "created");
        assertThat(items).extracting(item -> item.path("uid").asText()).containsExactly(elsewhere.toString(),
                elsewhere.toString(), home.toString(), target.toString(), home.toString(), home.toString());
        assertThat(items.get(0).has("data")).isFalse();
        assertThat(items.get(1).path("data").path("firstName").asText()).isEqualTo("Анна");
        assertThat(platform.get(pid).status()).as("erased reads 404 as now").isEqualTo(404);

        // each version is what an as-of read at its moment answers (where the next one came at a later millisecond)
        var checked = new ArrayList<Long>();
        for (int i = items.size() - 1; i >= 1; i--) {
            var version = items.get(i);
            var changed = Instant.parse(version.path("changedAt").asText());
            if (!changed.isBefore(Instant.parse(items.get(i - 1).path("changedAt").asText()))) {
                continue;
            }
            var then = asOf(operator, pid, changed);
            assertThat(then.status()).as(then.body()).isEqualTo(200);
            assertThat(then.json().path("version").asLong()).isEqualTo(version.path("version").asLong());
            assertThat(then.json().path("uid").asText()).isEqualTo(version.path("uid").asText());
            assertThat(then.etag()).isEqualTo(Api.etag(version.path("version").asLong()));
            checked.add(version.path("version").asLong());
        }
        assertThat(checked).as("versions checked as of their moment").isNotEmpty();
        var first = Instant.parse(items.get(items.size() - 1).path("changedAt").asText());
        assertProblem(asOf(operator, pid, first.minusMillis(1)), 404, "profile-not-found");
        assertProblem(asOf(operator, pid, Instant.parse(items.get(0).path("changedAt").asText())), 404,
                "profile-not-found");

        var one = operator.send("GET", "/v1/profiles/" + pid + "/versions/2", null, null, Map.of());
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertThat(one.json()).isEqualTo(items.get(4));
        assertThat(actions(admin, pid)).contains("GET /v1/profiles/{pid}/versions",
                "GET /v1/profiles/{pid}/versions/{version}", "GET /v1/profiles/{pid}");
    }

    /** A batch's changes keep their versions too, each of its own kind. */
    @Test
    void aBatchCreateAndABatchUpdateKeepTheirVersions() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var created = platform.batchCreate("{\"profiles\": [{\"data\": {\"surname\": \"Пачкова\"}}]}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        var pid = UUID.fromString(created.json().path("created").get(0).path("pid").asText());
        var updated = platform.batchUpdate("{\"updates\": [{\"pid\": \"" + pid + "\", \"version\": 1, \"data\":"
                + " {\"surname\": \"Пачкова\", \"firstName\": \"Вера\"}}]}");
        assertThat(updated.status()).as(updated.body()).isEqualTo(200);

        var page = platform.send("GET", "/v1/profiles/" + pid + "/versions", null, null, Map.of());

        assertThat(page.status()).as(page.body()).isEqualTo(200);
        var items = StreamSupport.stream(page.json().path("items").spliterator(), false).toList();
        assertThat(items).extracting(item -> item.path("kind").asText()).containsExactly("batchUpdated", "created");
        assertThat(items).extracting(item -> item.path("version").asLong()).containsExactly(2L, 1L);
        assertThat(items.get(0).path("data").path("firstName").asText()).isEqualTo("Вера");
    }

    /**
     * A purge for the right to erasure, of a profile that stands: refused unless it says to erase too and names the
     * version; an admin's only; afterwards nothing of the profile is read or found, one data-free version of the purge
     * keeps the numbering, and the audit trail says who purged it.
     */
    @Test
    void aPurgeOfAStandingProfileLeavesNothingToReadOrFindAndIsInTheTrail() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var admin = platform.as(TestAuth.ADMIN);
        String phone = SearchApi.uniquePhone();
        var pid = platform.create("{\"surname\": \"Забытова\", \"phones\": [\"" + phone + "\"]}").pid();
        assertThat(platform.patch(pid, "\"1\"", "{\"firstName\": \"Ольга\"}").status()).isEqualTo(200);
        SearchApi.awaitIndexed(pid, 2);
        String purge = "/v1/profiles/" + pid + "/versions";

        assertProblem(admin.send("DELETE", purge, null, null, Map.of()), 409, "profile-not-erased");
        assertThat(platform.send("DELETE", purge + "?erase=true", null, null, Map.of("If-Match", "\"2\"")).status())
                .as("admins only").isEqualTo(403);
        var purged = admin.send("DELETE", purge + "?erase=true", null, null, Map.of("If-Match", "\"2\""));

        assertThat(purged.status()).as(purged.body()).isEqualTo(204);
        assertThat(platform.get(pid).status()).isEqualTo(404);
        var page = admin.send("GET", purge, null, null, Map.of());
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        assertThat(page.json().path("items")).isNotEmpty().allSatisfy(item -> {
            assertThat(item.path("kind").asText()).isEqualTo("purged");
            assertThat(item.has("data")).isFalse();
        });
        for (int version = 1; version <= 2; version++) {
            assertProblem(admin.send("GET", purge + "/" + version, null, null, Map.of()), 404, "version-not-found");
        }
        SearchApi.awaitIndexed(pid, -1);
        var found = admin.send("GET", "/v1/search?phone=" + phone.replaceAll("\\D", ""), null, null, Map.of());
        assertThat(found.status()).as(found.body()).isEqualTo(200);
        assertThat(found.json().path("items")).isEmpty();
        assertThat(actions(admin, pid)).contains("DELETE /v1/profiles/{pid}/versions");
    }

    /**
     * A profile whose row stands without its version in the history (written before versions were kept) is found by
     * check-tables, which records the row as its newest version; the next run finds nothing of it.
     */
    @Test
    void checkTablesRecordsARowItsHistoryLacks() {
        var platform = new Api(APP.getLocalPort()).as(TestAuth.PLATFORM);
        var pid = UUID.randomUUID();
        var uid = UUID.fromString(platform.create("{}").json().path("uid").asText());
        var keyspace = TestStack.configuration().cassandra.keyspace;
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance("INSERT INTO " + keyspace + ".profile"
                + " (pid, uid, home_uid, version, data, created_at, updated_at) VALUES (?, ?, ?, 3,"
                + " '{\"surname\":\"Давняя\"}', toTimestamp(now()), toTimestamp(now()))", pid, uid, uid));
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance("INSERT INTO " + keyspace + ".uid_pid"
                + " (uid, pid) VALUES (?, ?)", uid, pid));
        assertProblem(platform.send("GET", "/v1/profiles/" + pid + "/versions", null, null, Map.of()), 404,
                "profile-not-found");

        var first = checkTables(platform);

        assertThat(first).contains("version unrecorded: profile " + pid + " version 3 (repaired)");
        var versions = platform.send("GET", "/v1/profiles/" + pid + "/versions", null, null, Map.of());
        assertThat(versions.status()).as(versions.body()).isEqualTo(200);
        assertThat(versions.json().path("items").findValuesAsText("kind")).containsExactly("unrecorded");
        assertThat(versions.json().path("items").get(0).path("version").asLong()).isEqualTo(3);
        assertThat(checkTables(platform)).as("what other tests left on the shared stack aside").doesNotContain(pid.toString());
    }

    private static String checkTables(Api api) {
        var reply = api.as(TestAuth.ADMIN).wholeJobOnPort(APP.getAdminPort()).send("POST", "/tasks/check-tables?list=true", null,
                null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }

    private static Api.Reply asOf(Api api, UUID pid, Instant at) {
        return api.send("GET", "/v1/profiles/" + pid + "?asOf=" + URLEncoder.encode(at.toString(), StandardCharsets.UTF_8),
                null, null, Map.of());
    }

    /** The actions of the audit trail's records that name the pid. */
    private static List<String> actions(Api admin, UUID pid) {
        var reply = admin.send("GET", "/v1/audit?pid=" + pid, null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var actions = new ArrayList<String>();
        for (JsonNode record : reply.json().path("records")) {
            actions.add(record.path("action").asText());
        }
        return actions;
    }
}
