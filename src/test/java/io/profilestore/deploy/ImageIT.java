package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.profilestore.auth.ApiKeys;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The image that `mvn package` builds (target/jib-image.tar) is the one the chart can run: its name is the chart's
 * default, its user is the pods' user, and the very command lines the chart renders (API, indexer, migration Job)
 * run the image's own java on the image's own classes, with `check` in place of the command, against each rendered
 * configuration. Containers cannot run on these machines (crun's setrlimit is refused), so the image is unpacked
 * and its file system becomes the root of the process (chroot, with /proc mounted in a mount namespace of its own,
 * as the dynamic linker needs it); the process gets the image's environment and nothing of the machine's.
 *
 * Run by `mvn verify` after `package` (pom.xml, Failsafe execution "image"), as root.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ImageIT {

    static final Path IMAGE = Charts.PROJECT.resolve("target/jib-image.tar");
    static final ObjectMapper JSON = new ObjectMapper();
    static final Pattern REFERENCE = Pattern.compile("\\$\\{file:([^}]*)}");

    @TempDir
    static Path temp;

    Path rootfs;
    JsonNode config;
    String reference;

    @BeforeAll
    void unpack() throws Exception {
        assertThat(IMAGE).as("the image archive; `mvn package` builds it (or -Dimage.skip left it out)").exists();
        // chroot and mount need root; CI and the release run as root, a developer's own user skips this (reported)
        Assumptions.assumeTrue(run(List.of("id", "-u"), Map.of("PATH", "/usr/bin:/bin")).output().trim().equals("0"),
                "ImageIT needs root (chroot, mount): run `mvn verify` as root to prove the image");
        var layout = temp.resolve("layout");
        Files.createDirectories(layout);
        tar("-xf", IMAGE.toString(), "-C", layout.toString());
        // an OCI image layout: index.json -> the manifest -> the config and the layers, each a blob by digest
        var index = JSON.readTree(layout.resolve("index.json").toFile());
        var manifestEntry = index.path("manifests").get(0);
        reference = manifestEntry.path("annotations").path("org.opencontainers.image.ref.name").asText();
        var manifest = JSON.readTree(blob(layout, manifestEntry.path("digest").asText()).toFile());
        config = JSON.readTree(blob(layout, manifest.path("config").path("digest").asText()).toFile());
        rootfs = temp.resolve("rootfs");
        Files.createDirectories(rootfs);
        for (var layer : manifest.path("layers")) {
            var gzip = layer.path("mediaType").asText().endsWith("gzip");
            tar(gzip ? "-xzf" : "-xf", blob(layout, layer.path("digest").asText()).toString(), "-C", rootfs.toString());
        }
        Files.createDirectories(rootfs.resolve("proc"));
    }

    @Test
    void theImageIsTheChartsDefaultAndRunsAsThePodsUser() {
        var values = Charts.YAML.valueToTree(loadValues());
        var image = values.path("image");
        assertThat(reference).as("name and tag of the built image")
                .isEqualTo(image.path("repository").asText() + ":" + image.path("tag").asText());
        var pod = values.path("podSecurityContext");
        assertThat(config.path("config").path("User").asText())
                .isEqualTo(pod.path("runAsUser").asText() + ":" + pod.path("runAsGroup").asText());
    }

    @Test
    void theImageHasNoShellNorAnythingSetuid() throws IOException {
        for (var shell : List.of("sh", "bash", "dash", "busybox")) {
            assertThat(rootfs.resolve("bin/" + shell)).doesNotExist();
            assertThat(rootfs.resolve("usr/bin/" + shell)).doesNotExist();
        }
        assertThat(rootfs.resolve("usr/bin/apt-get")).doesNotExist();
        assertThat(rootfs.resolve("usr/bin/dpkg")).doesNotExist();
        try (Stream<Path> files = Files.walk(rootfs)) {
            var executables = files.filter(Files::isRegularFile).filter(Files::isExecutable).toList();
            assertThat(executables).as("executables of the image").isNotEmpty();
            for (var file : executables) {
                var mode = Files.getAttribute(file, "unix:mode");
                assertThat(((Integer) mode) & 06000).as("setuid/setgid bits of %s", rootfs.relativize(file)).isZero();
            }
        }
        assertThat(Files.getPosixFilePermissions(rootfs.resolve("tmp"))).contains(PosixFilePermission.OTHERS_WRITE);
    }

    /** The trust store no maintainer script made (image/base/TrustStore.java): the JRE reads it and trusts its CAs. */
    @Test
    void theImagesJavaTrustsTheDebianCertificateAuthorities() throws Exception {
        var run = inImage(List.of("keytool", "-list", "-cacerts", "-storepass", "changeit"));
        assertThat(run.exitCode()).as(run.output()).isZero();
        var matcher = Pattern.compile("contains (\\d+) entries").matcher(run.output());
        assertThat(matcher.find()).as(run.output()).isTrue();
        assertThat(Integer.parseInt(matcher.group(1))).isGreaterThan(100);
        assertThat(run.output()).contains("trustedCertEntry");
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void everyCommandLineOfTheChartRunsTheImagesJavaOnItsClasses(Values values) throws Exception {
        var docs = Charts.documents(values);
        var workloads = 0;
        for (var kind : List.of("Deployment", "Job", "CronJob")) {
            for (var doc : Charts.ofKind(docs, kind)) {
                var name = doc.path("metadata").path("name").asText();
                var pod = kind.equals("CronJob")
                        ? doc.path("spec").path("jobTemplate").path("spec").path("template").path("spec")
                        : doc.path("spec").path("template").path("spec");
                var line = commandLine(pod.path("containers").get(0));
                var command = line.get(line.size() - 2);
                assertThat(command).as(name).isIn("server", "indexer", "migrate", "reconcile", "check-tables");
                line.set(line.size() - 2, "check");
                // each workload mounts its own ConfigMap (their pools differ) at /config
                writeMounts(configOf(docs, pod));
                var run = inImage(line);
                // the exit code is the command's verdict (a refusal is tested below). Its "Configuration is OK" is a
                // log line, which now and then never reached the output (exit 0, no output at all, in 1 run of 3
                // here; likely lost as the JVM ended), so it is not asserted
                assertThat(run.exitCode()).as("%s (%s) of %s in the image:%n%s", name, command, values, run.output())
                        .isZero();
                workloads++;
            }
        }
        assertThat(workloads).as("the API, the indexer, the migration Job and the two CronJobs").isEqualTo(5);
    }

    /** The check above could not pass by accident: the same line refuses a configuration the service cannot run. */
    @Test
    void theCheckInTheImageRefusesABrokenConfiguration() throws Exception {
        var docs = Charts.documents(Values.PRODUCTION);
        var pod = Charts.ofKind(docs, "Deployment").get(0).path("spec").path("template").path("spec");
        writeMounts(configOf(docs, pod).replace("shards: 4", "shards: 0"));
        var line = commandLine(pod.path("containers").get(0));
        line.set(line.size() - 2, "check");
        var run = inImage(line);
        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("elasticsearch.index.shards");
    }

    private static List<String> commandLine(JsonNode container) {
        var line = new ArrayList<String>();
        container.path("command").forEach(c -> line.add(c.asText()));
        container.path("args").forEach(a -> line.add(a.asText()));
        return line;
    }

    /** The profile-store.yml of the ConfigMap that a pod mounts as its volume "config". */
    private static String configOf(List<JsonNode> docs, JsonNode pod) {
        for (var volume : pod.path("volumes")) {
            if (volume.path("name").asText().equals("config")) {
                var configMap = volume.path("configMap").path("name").asText();
                return Charts.named(docs, "ConfigMap", configMap).path("data").path("profile-store.yml").asText();
            }
        }
        throw new AssertionError("no config volume in " + pod);
    }

    /** The ConfigMap at /config and a fake file for each secret the configuration reads, where the pod mounts them. */
    private void writeMounts(String yaml) throws IOException {
        var configFile = rootfs.resolve("config/profile-store.yml");
        Files.createDirectories(configFile.getParent());
        Files.writeString(configFile, yaml);
        var matcher = REFERENCE.matcher(yaml);
        var secrets = 0;
        while (matcher.find()) {
            var file = inRoot(matcher.group(1));
            Files.createDirectories(file.getParent());
            var name = Path.of(ChartConfigTest.MOUNT).relativize(Path.of(matcher.group(1))).toString();
            Files.writeString(file, ChartConfigTest.fake(name) + "\n");
            secrets++;
        }
        assertThat(secrets).as("secrets the configuration reads").isPositive();
        var keys = inRoot(ChartConfigTest.MOUNT + "/api-keys/api-keys.yml");
        Files.createDirectories(keys.getParent());
        Files.writeString(keys, "- name: image-test\n  hash: %s\n  roles: [platform]\n  machine: true\n"
                .formatted(ApiKeys.hash("psk_image-test-key")));
    }

    private Path inRoot(String absolute) {
        return rootfs.resolve(absolute.substring(1));
    }

    record Run(int exitCode, String output) {
    }

    /**
     * The command as the image's user, with the image's environment only, in the image's file system. The host's
     * sh, mount and chroot set it up; from exec on, everything (java, its libraries, the classes) is the image's.
     */
    private Run inImage(List<String> command) throws Exception {
        var user = config.path("config").path("User").asText();
        // sh -c SCRIPT ROOT USER COMMAND...: $0 is the root, $1 the user, the rest the command
        var script = "mount -t proc proc \"$0/proc\" && user=$1 && shift && exec chroot --userspec=\"$user\" \"$0\" \"$@\"";
        var line = new ArrayList<>(List.of("unshare", "--mount", "--fork", "--", "/bin/sh", "-c", script,
                rootfs.toString(), user));
        line.addAll(command);
        var environment = new LinkedHashMap<String, String>();
        for (var variable : config.path("config").path("Env")) {
            var pair = variable.asText().split("=", 2);
            environment.put(pair[0], pair[1]);
        }
        // the host's PATH only for sh, unshare, mount and chroot before exec: the image's comes first
        environment.put("PATH", environment.get("PATH") + ":/usr/bin:/bin:/usr/sbin:/sbin");
        return run(line, environment);
    }

    /** Runs a command with exactly this environment; its output (both streams) goes to a file, read once it ends. */
    private static Run run(List<String> command, Map<String, String> environment) throws Exception {
        var log = Files.createTempFile(temp, "run", ".log");
        var builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        var process = builder.start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("did not finish in 90 s: " + command + "\n" + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log));
    }

    private static void tar(String... args) throws Exception {
        var line = new ArrayList<String>();
        line.add("tar");
        line.addAll(List.of(args));
        var run = run(line, Map.of("PATH", "/usr/bin:/bin"));
        assertThat(run.exitCode()).as("tar %s: %s", List.of(args), run.output()).isZero();
    }

    private static Path blob(Path layout, String digest) {
        var parts = digest.split(":", 2);
        return layout.resolve("blobs").resolve(parts[0]).resolve(parts[1]);
    }

    private static Map<?, ?> loadValues() {
        try {
            return Charts.YAML.readValue(Charts.CHART.resolve("values.yaml").toFile(), Map.class);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
