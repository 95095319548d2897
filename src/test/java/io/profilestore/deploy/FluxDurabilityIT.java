package io.profilestore.deploy;

import static io.profilestore.deploy.Flux.instances;
import static io.profilestore.deploy.Flux.name;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What keeps production's data in flux/: PostgreSQL waits for a synchronous standby, archives its WAL and is backed
 * up daily; Cassandra is repaired well within gc_grace and backed up daily. Staging keeps none of it.
 */
class FluxDurabilityIT {

    private static final long MIB = 1024 * 1024;

    @Test
    void productionPostgresWaitsForASynchronousStandbyAndStagingHasNone() throws IOException {
        // the file someone else's test reads the connection budget from: exactly this path, a string
        var file = Charts.named(Charts.parse(Files.readString(Flux.FOLDER.resolve("infrastructure/instances/base/postgres.yaml"))),
                "Cluster", "profiles-pg");
        assertThat(file.path("spec").path("postgresql").path("parameters").path("max_connections").textValue()).isEqualTo("200");

        var production = Charts.named(instances("production"), "Cluster", "profiles-pg");
        var spec = production.path("spec");
        var synchronous = spec.path("postgresql").path("synchronous");
        int instances = spec.path("instances").asInt();
        assertThat(synchronous.path("method").asText()).isIn("any", "first");
        // at least one standby confirms each commit, and CloudNativePG refuses a number that is not below instances
        assertThat(synchronous.path("number").asInt()).isBetween(1, instances - 1);
        assertThat(synchronous.path("dataDurability").asText()).as("no fall back to asynchronous").isEqualTo("required");
        assertThat(spec.has("minSyncReplicas") || spec.has("maxSyncReplicas")).as("the legacy settings beside").isFalse();
        // promote only a replica that surely has every synchronous commit (needs 3 instances or more)
        assertThat(production.path("metadata").path("annotations").path("alpha.cnpg.io/failoverQuorum").asText()).isEqualTo("true");
        assertThat(instances).isGreaterThan(2);
        var parameters = spec.path("postgresql").path("parameters");
        assertThat(parameters.path("max_connections").asText()).isEqualTo("200");
        // room for the shared buffers and 200 backends of about 10 MiB each
        long memory = bytes(spec.path("resources").path("limits").path("memory").asText());
        long sharedBuffers = bytes(parameters.path("shared_buffers").asText());
        assertThat(memory).isGreaterThanOrEqualTo(sharedBuffers + 200 * MIB * 10);
        assertThat(sharedBuffers * 4).isLessThanOrEqualTo(memory);

        var staging = Charts.named(instances("staging"), "Cluster", "profiles-pg");
        assertThat(staging.path("spec").path("instances").asInt()).isEqualTo(1);
        assertThat(staging.path("spec").path("postgresql").has("synchronous")).as("one instance has no standby").isFalse();
        assertThat(staging.path("metadata").path("annotations").has("alpha.cnpg.io/failoverQuorum")).isFalse();
        assertThat(staging.path("spec").path("postgresql").path("parameters").path("max_connections").asText()).isEqualTo("200");
        long stagingMemory = bytes(staging.path("spec").path("resources").path("limits").path("memory").asText());
        assertThat(bytes(staging.path("spec").path("postgresql").path("parameters").path("shared_buffers").asText()) * 4)
                .isLessThanOrEqualTo(stagingMemory);
    }

    @Test
    void productionArchivesPostgresWalAndBacksItUpDaily() throws IOException {
        var docs = instances("production");
        var cluster = Charts.named(docs, "Cluster", "profiles-pg");
        var backup = cluster.path("spec").path("backup");
        assertThat(backup.path("retentionPolicy").asText()).matches("[1-9]\\d*[dwm]");
        var store = backup.path("barmanObjectStore");
        // the environment's own file decides where backups go
        var objectStore = productionObjectStore("Cluster").path("spec").path("backup").path("barmanObjectStore");
        assertThat(store.path("destinationPath").asText()).startsWith("s3://")
                .isEqualTo(objectStore.path("destinationPath").asText());
        var credentials = store.path("s3Credentials");
        assertThat(credentials.path("accessKeyId").path("name").asText()).isEqualTo("profiles-pg-backup-s3");
        assertThat(credentials.path("accessKeyId").path("key").asText()).isEqualTo("ACCESS_KEY_ID");
        assertThat(credentials.path("secretAccessKey").path("name").asText()).isEqualTo("profiles-pg-backup-s3");
        assertThat(credentials.path("secretAccessKey").path("key").asText()).isEqualTo("ACCESS_SECRET_KEY");
        assertThat(store.path("wal").path("compression").asText()).isNotEmpty();

        var scheduled = Charts.named(docs, "ScheduledBackup", "profiles-pg-daily").path("spec");
        assertThat(scheduled.path("cluster").path("name").asText()).isEqualTo(name(cluster));
        assertThat(scheduled.path("method").asText()).isEqualTo("barmanObjectStore");
        // six fields, seconds first: a fixed time of every day
        assertThat(scheduled.path("schedule").asText()).matches("\\d+ \\d+ \\d+ \\* \\* \\*");

        var staging = instances("staging");
        assertThat(Charts.named(staging, "Cluster", "profiles-pg").path("spec").has("backup")).isFalse();
        assertThat(Charts.ofKind(staging, "ScheduledBackup")).isEmpty();
    }

    @Test
    void cassandraIsRepairedWellWithinGcGraceAndBackedUpDaily() throws IOException {
        var k8ssandra = Charts.named(instances("production"), "K8ssandraCluster", "profiles").path("spec");
        var reaper = k8ssandra.path("reaper");
        var scheduling = reaper.path("autoScheduling");
        assertThat(scheduling.path("enabled").asBoolean()).isTrue();
        assertThat(scheduling.path("repairType").asText()).as("full repairs").isEqualTo("REGULAR");
        // auto-scheduling covers every keyspace but system ones and the excluded: the app's among them
        var keyspace = Charts.values(Values.PRODUCTION).path("config").path("cassandra").path("keyspace").asText();
        assertThat(keyspace).isEqualTo("profiles").doesNotStartWith("system");
        assertThat(scheduling.path("excludedKeyspaces")).extracting(JsonNode::asText).doesNotContain(keyspace);
        // two runs start in each gc_grace window, so one failed run still leaves every range repaired in time
        int daysBetween = Integer.parseInt(env(reaper, "REAPER_SCHEDULE_DAYS_BETWEEN"));
        assertThat(daysBetween).isPositive();
        assertThat(2L * daysBetween * 86_400).isLessThan(gcGraceSeconds());

        var medusa = k8ssandra.path("medusa").path("storageProperties");
        assertThat(medusa.path("storageProvider").asText()).isIn("s3", "s3_compatible", "s3_rgw", "google_storage", "azure_blobs");
        var objectStore = productionObjectStore("K8ssandraCluster").path("spec").path("medusa").path("storageProperties");
        assertThat(medusa.path("bucketName").asText()).isNotEmpty().isEqualTo(objectStore.path("bucketName").asText());
        assertThat(medusa.path("storageSecretRef").path("name").asText()).isEqualTo("profiles-medusa-s3");
        assertThat(medusa.path("secure").asBoolean()).as("TLS to the store").isTrue();
        assertThat(medusa.path("maxBackupCount").asInt()).isPositive();
        var schedule = Charts.named(instances("production"), "MedusaBackupSchedule", "profiles-dc1-daily").path("spec");
        assertThat(schedule.path("backupSpec").path("cassandraDatacenter").asText())
                .isEqualTo(k8ssandra.path("cassandra").path("datacenters").get(0).path("metadata").path("name").asText());
        assertThat(schedule.path("backupSpec").path("backupType").asText()).isIn("differential", "full");
        assertThat(schedule.path("cronSchedule").asText()).as("a fixed time of every day").matches("\\d+ \\d+ \\* \\* \\*");
        assertThat(schedule.path("disabled").asBoolean()).isFalse();

        var staging = instances("staging");
        var stagingSpec = Charts.named(staging, "K8ssandraCluster", "profiles").path("spec");
        assertThat(stagingSpec.path("reaper").path("autoScheduling").path("enabled").asBoolean()).isTrue();
        assertThat(stagingSpec.has("medusa")).isFalse();
        assertThat(Charts.ofKind(staging, "MedusaBackupSchedule")).isEmpty();
    }

    /** The patch of this kind in production's object-store.yaml, where the operator sets the buckets. */
    private static JsonNode productionObjectStore(String kind) throws IOException {
        var patches = Charts.parse(Files.readString(Flux.FOLDER.resolve("infrastructure/instances/production/object-store.yaml")));
        assertThat(Charts.ofKind(patches, kind)).hasSize(1);
        return Charts.ofKind(patches, kind).get(0);
    }

    private static String env(JsonNode container, String variable) {
        for (var e : container.path("additionalEnvVars")) {
            if (e.path("name").asText().equals(variable)) {
                return e.path("value").asText();
            }
        }
        throw new AssertionError(variable + " is not set");
    }

    /** The smallest gc_grace_seconds of the app's tables (cql/): Cassandra's default, 10 days, where none is set. */
    private static long gcGraceSeconds() throws IOException {
        long smallest = 864_000;
        try (Stream<Path> files = Files.list(Charts.PROJECT.resolve("cql"))) {
            for (var file : files.filter(f -> f.toString().endsWith(".cql")).toList()) {
                var matcher = Pattern.compile("(?i)gc_grace_seconds\\s*=\\s*(\\d+)").matcher(Files.readString(file));
                while (matcher.find()) {
                    smallest = Math.min(smallest, Long.parseLong(matcher.group(1)));
                }
            }
        }
        return smallest;
    }

    /** A Kubernetes quantity (512Mi, 4Gi) or a PostgreSQL size (128MB, 1GB: units of 1024) in bytes. */
    private static long bytes(String size) {
        var matcher = Pattern.compile("(\\d+)\\s*(Ki|Mi|Gi|kB|MB|GB)?").matcher(size);
        assertThat(matcher.matches()).as("a size: %s", size).isTrue();
        long n = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2) == null ? "" : matcher.group(2)) {
            case "Ki", "kB" -> n * 1024;
            case "Mi", "MB" -> n * MIB;
            case "Gi", "GB" -> n * MIB * 1024;
            default -> n;
        };
    }
}
