package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.profilestore.deploy.Charts.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Least privilege in the chart: the logins that own or administer a backing service's schema (the owner of the
 * PostgreSQL tables) reach the migrate Job alone, as mounted files and in its configuration; the API, the indexer,
 * the CronJobs and the test pod run with the service's own users only.
 */
class ChartLeastPrivilegeTest {

    /** The folders, under the secrets' mount path, of the migration logins (_helpers.tpl). */
    static final Set<String> MIGRATION_FOLDERS = Set.of("postgres-migration", "cassandra-migration");

    @ParameterizedTest
    @EnumSource(Values.class)
    void theMigrationLoginsReachTheMigrateJobAlone(Values values) {
        var docs = Charts.documents(values);
        var secrets = Charts.values(values).path("secrets");
        var migrationSecrets = List.of(secrets.path("postgresMigration").path("name").asText(),
                secrets.path("cassandraMigration").path("name").asText());
        assertThat(migrationSecrets).as("the environment names the owner's Secret").allMatch(s -> !s.isEmpty());
        // the serving pods use other Secrets: the service's own role's
        assertThat(migrationSecrets).doesNotContain(secrets.path("postgres").path("name").asText(),
                secrets.path("cassandra").path("name").asText());

        var pods = pods(docs);
        assertThat(pods.keySet()).contains("Job/profile-store-migrate", "Deployment/profile-store-api",
                "Deployment/profile-store-indexer", "CronJob/profile-store-reconcile", "CronJob/profile-store-check-tables");
        for (var e : pods.entrySet()) {
            var mounted = secretNames(e.getValue());
            if (e.getKey().equals("Job/profile-store-migrate")) {
                assertThat(mounted).as(e.getKey()).containsAll(migrationSecrets);
                assertThat(mountedFolders(e.getValue())).containsAll(MIGRATION_FOLDERS);
            } else {
                assertThat(mounted).as("%s mounts no migration login", e.getKey()).doesNotContainAnyElementsOf(migrationSecrets);
                assertThat(mountedFolders(e.getValue())).as(e.getKey()).doesNotContainAnyElementsOf(MIGRATION_FOLDERS);
            }
        }
        for (var map : Charts.serviceConfigMaps(docs)) {
            var name = map.path("metadata").path("name").asText();
            var config = map.path("data").path("profile-store.yml").asText();
            if (name.equals("profile-store-migrate")) {
                assertThat(config)
                        .contains("migrationUser: |-\n    ${file:/var/run/secrets/profile-store/postgres-migration/username}")
                        .contains("migrationPassword: |-\n    ${file:/var/run/secrets/profile-store/postgres-migration/password}")
                        .contains("migrationUsername: |-\n    ${file:/var/run/secrets/profile-store/cassandra-migration/username}")
                        .contains("migrationPassword: |-\n    ${file:/var/run/secrets/profile-store/cassandra-migration/password}");
            } else {
                assertThat(config).as("ConfigMap %s", name).doesNotContain("migrationUser", "migrationUsername",
                        "migrationPassword", "-migration/");
            }
        }
    }

    @Test
    void withoutAnOwnersSecretMigrateRunsAsTheServicesRole() {
        var docs = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("secrets.postgresMigration.name", "",
                "secrets.cassandraMigration.name", "")));
        var config = Charts.named(docs, "ConfigMap", "profile-store-migrate").path("data").path("profile-store.yml").asText();
        assertThat(config).doesNotContain("migrationUser").doesNotContain("migrationPassword");
        assertThat(config).doesNotContain("migrationUsername");
        assertThat(mountedFolders(pods(docs).get("Job/profile-store-migrate"))).doesNotContainAnyElementsOf(MIGRATION_FOLDERS);
    }

    /** A projected secrets volume without the migration logins' sources: what the CronJobs mount. */
    static JsonNode withoutMigrationLogins(JsonNode projected) {
        var copy = (ObjectNode) projected.deepCopy();
        var kept = copy.arrayNode();
        for (var source : projected.path("sources")) {
            boolean migration = false;
            for (var item : source.path("secret").path("items")) {
                migration |= MIGRATION_FOLDERS.contains(item.path("path").asText().split("/")[0]);
            }
            if (!migration) {
                kept.add(source);
            }
        }
        copy.set("sources", (ArrayNode) kept);
        return copy;
    }

    /** Every pod template of the rendering, by kind/name. */
    static Map<String, JsonNode> pods(List<JsonNode> docs) {
        var pods = new LinkedHashMap<String, JsonNode>();
        for (var doc : docs) {
            var spec = switch (doc.path("kind").asText()) {
                case "Deployment", "Job" -> doc.path("spec").path("template").path("spec");
                case "CronJob" -> doc.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
                case "Pod" -> doc.path("spec");
                default -> null;
            };
            if (spec != null) {
                pods.put(doc.path("kind").asText() + "/" + doc.path("metadata").path("name").asText(), spec);
            }
        }
        return pods;
    }

    /** The Secrets a pod mounts: whole, or projected. */
    static List<String> secretNames(JsonNode pod) {
        var names = new ArrayList<String>();
        for (var volume : pod.path("volumes")) {
            if (volume.has("secret")) {
                names.add(volume.path("secret").path("secretName").asText());
            }
            for (var source : volume.path("projected").path("sources")) {
                if (source.has("secret")) {
                    names.add(source.path("secret").path("name").asText());
                }
            }
        }
        return names;
    }

    /** The first folder of each projected secret file (postgres, postgres-migration, ...). */
    static List<String> mountedFolders(JsonNode pod) {
        var folders = new ArrayList<String>();
        for (var volume : pod.path("volumes")) {
            for (var source : volume.path("projected").path("sources")) {
                source.path("secret").path("items").forEach(i -> folders.add(i.path("path").asText().split("/")[0]));
            }
        }
        return folders;
    }
}
