package io.profilestore.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.cli.CommandActor;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ApplicationCommand;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The import command as an operator runs it, in a JVM of its own, against the stack: a file of given ids comes in
 * whole and verified, bad records go to the rejects file and the import goes on, a run killed halfway resumes from
 * its checkpoint, a rerun changes nothing and never undoes what the service wrote since, and the seed's own source,
 * a PostgreSQL table of jsonb documents, imports the same way.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ImportIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(),
            TestStack.configOverrides(ConfigOverride.config("indexer.inProcess", "true")));
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration COMMAND = Duration.ofMinutes(5);

    @TempDir
    Path folder;
    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    /** A generated profile's line: its ids given; its phone its own, so that search finds exactly it. */
    record Line(UUID pid, UUID uid, String phone, String text) {
    }

    static Line line(UUID uid, int n) {
        var pid = UUID.randomUUID();
        String phone = SearchApi.uniquePhone();
        return new Line(pid, uid, phone, "{\"pid\": \"" + pid + "\", \"uid\": \"" + uid + "\", \"createdAt\":"
                + " \"2015-03-0" + (1 + n % 9) + "T08:00:00Z\", \"data\": {\"surname\": \"Импортов\", \"firstName\":"
                + " \"Пётр\", \"n\": " + n + ", \"phones\": [\"" + phone + "\"]}}");
    }

    Path file(List<String> lines) throws IOException {
        Path file = folder.resolve("profiles.ndjson");
        Files.write(file, lines, StandardCharsets.UTF_8);
        return file;
    }

    static ApplicationCommand.Result importing(Path file, String... more) throws Exception {
        var arguments = new ArrayList<>(List.of("import", TestStack.configPath(), "--ndjson", file.toString()));
        arguments.addAll(List.of(more));
        return ApplicationCommand.run(COMMAND, arguments.toArray(String[]::new));
    }

    @Test
    void aFileComesInWithItsIdsIndexedAndVerifiedAndWhatTheApiWouldRefuseIsRejected() throws Exception {
        var lines = new ArrayList<String>();
        var given = new ArrayList<Line>();
        var users = new ArrayList<UUID>();
        for (int u = 0; u < 20; u++) {
            users.add(UUID.randomUUID());
            for (int p = 0; p < 3; p++) {
                var line = line(users.get(u), p);
                given.add(line);
                lines.add(line.text());
            }
        }
        lines.add(5, "{\"data\": [\"Секретова\"]}");
        lines.add(17, "");
        lines.add(30, "{\"pid\": \"not-a-pid\", \"data\": {}}");
        lines.add("{\"data\": {\"surname\": \"Безымянная\"}}");

        var run = importing(file(lines));

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("import: 61 profiles written, 2 records rejected")
                .contains("verify: 63 records: 61 profiles equal to the source, 2 rejected, 0 different, 0 missing");
        for (var line : List.of(given.get(0), given.get(31), given.get(59))) {
            var read = api.get(line.pid());
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.etag()).isEqualTo("\"1\"");
            assertThat(read.json().path("uid").asText()).isEqualTo(line.uid().toString());
            assertThat(read.json().path("data").path("phones").get(0).asText()).isEqualTo(line.phone());
            assertThat(read.json().path("createdAt").asText()).startsWith("2015-03-0");
            // its history holds version 1, of kind imported
            var versions = api.send("GET", "/v1/profiles/" + line.pid() + "/versions", null, null, Map.of());
            assertThat(versions.status()).as(versions.body()).isEqualTo(200);
            assertThat(versions.json().path("items")).singleElement().satisfies(version -> {
                assertThat(version.path("version").asLong()).isEqualTo(1);
                assertThat(version.path("kind").asText()).isEqualTo("imported");
                assertThat(version.path("uid").asText()).isEqualTo(line.uid().toString());
            });
        }
        var user = api.user(users.get(7));
        assertThat(user.status()).isEqualTo(200);
        assertThat(user.json().path("profiles")).hasSize(3);
        // the index was built by the reindex at the end: a search finds an imported profile by its phone
        var found = api.send("GET", "/v1/search?phone=" + given.get(40).phone().replaceAll("\\D", ""), null, null, Map.of());
        assertThat(found.json().path("items").findValuesAsText("pid")).containsExactly(given.get(40).pid().toString());
        // the rejects: a line each, the line's number and why, none of its content
        var rejects = Files.readAllLines(folder.resolve("profiles.ndjson.rejects.ndjson"));
        assertThat(rejects).hasSize(2);
        assertThat(rejects.get(0)).contains("\"line\":6", "data must be a JSON object").doesNotContain("Секретова");
        assertThat(rejects.get(1)).contains("\"line\":31", "'pid' is not a UUID");
        // the run is in the audit trail: who ran it, from what, and how it ended
        // by the admin its credential proves (ApplicationCommand gives the tests' admin key), not the system's user
        assertThat(importRecords(folder.resolve("profiles.ndjson"))).containsExactly("test-admin API_KEY 200");
    }

    /** The audit trail's records of imports from this file: actor, kind and outcome each. */
    static List<String> importRecords(Path file) throws Exception {
        var found = new ArrayList<String>();
        try (var connection = TestStack.asOwner().getConnection(); var query = connection.prepareStatement("""
                SELECT r.actor, r.actor_kind, o.status FROM audit_record r
                  LEFT JOIN audit_outcome o ON o.record_id = r.id
                 WHERE r.action = 'import command' AND strpos(r.request, ?) > 0 ORDER BY r.id""")) {
            query.setString(1, file.toAbsolutePath().toString());
            try (var rows = query.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1) + " " + rows.getString(2) + " " + rows.getObject(3));
                }
            }
        }
        return found;
    }

    /** Who imports is proved before anything is opened: without an admin's credential nothing is read or written. */
    @Test
    void anImportWithoutAnAdminsCredentialRunsNothing() throws Exception {
        var line = line(UUID.randomUUID(), 0);
        var pid = line.pid();
        var source = file(List.of(line.text()));

        var run = ApplicationCommand.start(Map.of(CommandActor.TOKEN, TestAuth.OPERATOR), "import",
                TestStack.configPath(), "--ndjson", source.toString()).await(COMMAND, "import");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.output()).contains("import: test-operator does not hold the admin role")
                .doesNotContain("import: resuming").doesNotContain("profiles equal to the source");
        assertThat(api.get(pid).status()).as("nothing written").isEqualTo(404);
        assertThat(importRecords(source)).as("nothing recorded").isEmpty();
        assertThat(Files.exists(Path.of(source + ".checkpoint"))).as("nothing begun").isFalse();
    }

    @Test
    void aPidTheServiceHeldBeforeTheImportIsADifferenceNotAChangeSince() throws Exception {
        var lines = new ArrayList<Line>();
        for (int i = 0; i < 3; i++) {
            lines.add(line(UUID.randomUUID(), i));
        }
        var held = lines.get(1).pid();
        var created = api.send("PUT", "/v1/profiles/" + held, "application/json", "{\"data\": {\"surname\": \"Прежняя\"}}",
                Map.of("If-None-Match", "*"));
        assertThat(created.status()).isEqualTo(201);
        assertThat(api.put(held, "\"1\"", "{\"surname\": \"Прежняя\", \"n\": 2}").status()).isEqualTo(200);

        var run = importing(file(lines.stream().map(Line::text).toList()), "--no-index");

        assertThat(run.output()).contains("2 profiles equal to the source", "1 different", "0 changed by the service since");
        assertThat(run.exitCode()).as("the source's record was not written over the service's profile").isEqualTo(1);
        assertThat(Files.readAllLines(folder.resolve("profiles.ndjson.differences.ndjson")))
                .singleElement().asString().contains(held.toString(), "before the import");
        assertThat(api.get(held).json().path("data").path("surname").asText()).isEqualTo("Прежняя");
        assertThat(importRecords(folder.resolve("profiles.ndjson"))).containsExactly("test-admin API_KEY 500");
    }

    @Test
    void anImportKilledHalfwayResumesFromItsCheckpointAndVerifiesWithNoDifference() throws Exception {
        var lines = new ArrayList<String>();
        for (int i = 0; i < 10_000; i++) {
            lines.add(i % 1_000 == 999 ? "{\"data\": 7}" : line(UUID.randomUUID(), i).text());
        }
        Path file = file(lines);
        Path checkpoint = folder.resolve("profiles.ndjson.checkpoint");

        // one write at a time: 10,000 take seconds, not the moment a loaded machine may take to see record 2,000
        // (at 128 at once, a CI run saw the import end before the kill)
        var first = ApplicationCommand.start("import", TestStack.configPath(), "--ndjson", file.toString(), "--no-index",
                "--parallelism", "1");
        await("the import's checkpoint past record 2,000").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> done(checkpoint) >= 2_000);
        first.process().destroyForcibly(); // kill -9: no shutdown hook, no last save
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        long killedAt = done(checkpoint);
        assertThat(killedAt).as("killed halfway").isBetween(2_000L, 9_500L);

        var resumed = importing(file, "--no-index");

        assertThat(resumed.exitCode()).as(resumed.output()).isZero();
        assertThat(resumed.output()).contains("import: resuming after record")
                .contains("verify: 10,000 records: 9,990 profiles equal to the source, 10 rejected, 0 different, 0 missing");
        var rejected = Files.readAllLines(folder.resolve("profiles.ndjson.rejects.ndjson"));
        assertThat(rejected).as("each bad line once, however often it was read").hasSize(10).doesNotHaveDuplicates();
    }

    @Test
    void aRerunChangesNothingAndNeverUndoesWhatTheServiceWroteSince() throws Exception {
        var lines = new ArrayList<Line>();
        for (int i = 0; i < 30; i++) {
            lines.add(line(UUID.randomUUID(), i));
        }
        Path file = file(lines.stream().map(Line::text).toList());
        assertThat(importing(file, "--no-index").exitCode()).isZero();
        var before = rows(lines);

        var again = importing(file, "--no-index");

        assertThat(again.exitCode()).as(again.output()).isZero();
        assertThat(again.output()).contains("an earlier run wrote every record; nothing is written again");
        assertThat(rows(lines)).as("the same versions, written at the same time").isEqualTo(before);

        // the service changes one and erases another; an import started afresh (its checkpoint gone) keeps both
        var changed = lines.get(3).pid();
        var erased = lines.get(4).pid();
        assertThat(api.put(changed, "\"1\"", "{\"surname\": \"Изменённая\"}").status()).isEqualTo(200);
        assertThat(api.delete(erased, "\"1\"").status()).isEqualTo(204);
        Files.delete(folder.resolve("profiles.ndjson.checkpoint"));

        var afresh = importing(file, "--no-index");

        assertThat(afresh.output()).contains("28 profiles equal to the source", "0 missing", "2 changed by the service since");
        assertThat(afresh.exitCode()).as("an erase by the service is a change since, as its history says").isZero();
        assertThat(api.get(changed).json().path("data").path("surname").asText()).isEqualTo("Изменённая");
        assertThat(api.get(changed).etag()).isEqualTo("\"2\"");
        assertThat(api.get(erased).status()).as("erased stays erased").isEqualTo(404);
        assertThat(Stores.pidsOfUser(lines.get(4).uid())).isEmpty();
    }

    /**
     * An import run again once Cassandra purged an erase's tombstone from the profile's row (after gc_grace_seconds) would
     * write the erased profile back at its time 1, which nothing newer hides any more. Its history still holds the erase,
     * so the import leaves the pid alone. The purged tombstone is made here by writing the erase into the history alone.
     */
    @Test
    void anImportNeverBringsBackAProfileTheServiceErasedEvenWithItsTombstoneGone() throws Exception {
        var line = line(UUID.randomUUID(), 1);
        var session = TestStack.backends().cassandra();
        session.execute(SimpleStatement.newInstance("UPDATE " + TestStack.configuration().cassandra.keyspace
                + ".profile_version SET kind = 'erased', changed_at = toTimestamp(now()), uid = ? WHERE pid = ?"
                + " AND version = 2", line.uid(), line.pid()));

        var imported = importing(file(List.of(line.text())), "--no-index");

        assertThat(imported.output()).contains("0 missing", "1 changed by the service since");
        assertThat(imported.exitCode()).as(imported.output()).isZero();
        assertThat(api.get(line.pid()).status()).as("erased stays erased").isEqualTo(404);
        assertThat(Stores.pidsOfUser(line.uid())).isEmpty();
    }

    @Test
    void aPostgresqlTableOfJsonbDocumentsImportsTheSameWay() throws Exception {
        String table = "legacy_profiles_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        var uid = UUID.randomUUID();
        var rows = new HashMap<UUID, String>();
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (pid uuid, uid uuid, doc jsonb, created_at timestamptz)");
            for (int i = 0; i < 25; i++) {
                var pid = UUID.randomUUID();
                String doc = "{\"surname\": \"Табличная\", \"n\": " + i + "}";
                rows.put(pid, doc);
                statement.execute("INSERT INTO " + table + " VALUES ('" + pid + "', " + (i < 5 ? "'" + uid + "'" : "null")
                        + ", '" + doc + "', '2012-06-01T00:00:00Z')");
            }
            statement.execute("INSERT INTO " + table + " VALUES (null, null, '[1, 2]', null)");
        }
        var endpoints = TestStack.endpoints();
        var command = ApplicationCommand.start(Map.of("PROFILE_STORE_IMPORT_JDBC_PASSWORD",
                endpoints.postgresOwnerPassword()), "import", TestStack.configPath(), "--jdbc-url", endpoints.postgresUrl(),
                "--jdbc-user", endpoints.postgresOwner(), "--query", "SELECT pid, uid, doc AS data, created_at FROM "
                        + table + " ORDER BY pid NULLS LAST", "--checkpoint", folder.resolve("table.checkpoint").toString(),
                "--no-index");
        var run = command.await(COMMAND, "import");

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("verify: 26 records: 25 profiles equal to the source, 1 rejected");
        var some = rows.keySet().iterator().next();
        assertThat(api.get(some).json().path("data").path("surname").asText()).isEqualTo("Табличная");
        assertThat(api.user(uid).json().path("profiles")).hasSize(5);
        try (var connection = TestStack.asOwner().getConnection(); var statement = connection.createStatement()) {
            statement.execute("DROP TABLE " + table);
        }
    }

    /** Each profile's row, its user's row and its place in the user's list, with the times they were written. */
    static Map<UUID, List<Object>> rows(List<Line> lines) {
        var session = TestStack.backends().cassandra();
        var rows = new HashMap<UUID, List<Object>>();
        for (var line : lines) {
            var profile = session.execute(SimpleStatement.newInstance("SELECT uid, version, data, created_at, updated_at,"
                    + " WRITETIME(data) AS written FROM profiles.profile WHERE pid = ?", line.pid())).one();
            var user = session.execute(SimpleStatement.newInstance("SELECT version, created_at, WRITETIME(version) AS written"
                    + " FROM profiles.persons WHERE uid = ?", line.uid())).one();
            var link = session.execute(SimpleStatement.newInstance("SELECT pid FROM profiles.uid_pid"
                    + " WHERE uid = ? AND pid = ?", line.uid(), line.pid())).one();
            rows.put(line.pid(), List.of(profile.getUuid("uid"), profile.getLong("version"), profile.getString("data"),
                    profile.getInstant("created_at"), profile.getInstant("updated_at"), profile.getLong("written"),
                    user.getLong("version"), user.getInstant("created_at"), user.getLong("written"),
                    link == null ? "no link" : "linked"));
        }
        return rows;
    }

    static long done(Path checkpoint) {
        try {
            JsonNode read = JSON.readTree(checkpoint.toFile());
            return read.path("done").asLong();
        } catch (IOException e) {
            return 0; // not written yet, or being moved into place
        }
    }
}
