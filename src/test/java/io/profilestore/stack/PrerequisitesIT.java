package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.ChildClasspath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a machine lacks is named, with how to get it, before anything starts. */
class PrerequisitesIT {

    @TempDir
    Path empty;

    /** A JDK 17 as the checks see one (a release file and an executable bin/java), too old for Elasticsearch. */
    private Path jdk17() throws IOException {
        Path home = empty.resolve("jdk-17");
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        Files.writeString(home.resolve("bin/java"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(home.resolve("bin/java"), PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    @Test
    void aMachineWithoutToolsOrPackagesGetsOneListOfEverythingMissing() throws IOException {
        var check = new Prerequisites(settings(Map.of(
                "PATH", empty.toString(),
                "CASSANDRA_JAVA_HOME", empty.resolve("no-jdk").toString(),
                "ES_JAVA_HOME", jdk17().toString(),
                "PROFILE_STORE_PG_BIN", empty.resolve("no-postgres").toString())), false, false);

        var missing = missing(check);

        assertThat(missing).containsKeys("a JDK 17 to 23 for Cassandra", "a JDK 21 or newer for Elasticsearch",
                "PostgreSQL", "Node.js 20 or newer", "npm", "kubectl", "yamllint");
        assertThat(missing.get("a JDK 17 to 23 for Cassandra")).contains("CASSANDRA_JAVA_HOME");
        assertThat(missing.get("a JDK 21 or newer for Elasticsearch"))
                .as("a JDK 17 is too old for Elasticsearch")
                .contains("ES_JAVA_HOME").contains("21 or newer");
        assertThat(missing.get("PostgreSQL")).contains("PROFILE_STORE_PG_BIN").contains("names nothing there");
        assertThat(missing.get("yamllint")).contains("apt-get install yamllint");
        assertThat(missing.get("kubectl")).contains("kubectl kustomize");
    }

    @Test
    void asRootWithAptAMissingPackageIsInstalledWhenNeededNotMissing() {
        var check = new Prerequisites(settings(Map.of("PATH", empty.toString())), true, true);

        var missing = missing(check);

        assertThat(missing).doesNotContainKey("yamllint").doesNotContainKey("libfaketime");
        assertThat(check.forTests()).filteredOn(f -> f.what().equals("yamllint")).singleElement()
                .satisfies(f -> assertThat(f.toInstall()).as("what prepare installs").isEqualTo("yamllint"));
        assertThat(missing).as("as root the stack needs useradd and setpriv, not on this PATH")
                .containsKeys("useradd", "setpriv");
    }

    @Test
    void thisMachineHasEverythingTheTestsNeed() {
        var check = Prerequisites.onThisMachine(StackSettings.fromEnvironment());

        assertThat(check.forStack()).isNotEmpty();
        assertThat(missing(check)).isEmpty();
    }

    @Test
    void runLocalStopsBeforeStartingAnythingAndSaysWhatIsMissing() throws Exception {
        Path stackDir = empty.resolve("stack");
        var builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", ChildClasspath.current(), RunLocal.class.getName())
                .redirectErrorStream(true);
        builder.environment().put("PROFILE_STORE_STACK", "local");
        builder.environment().put("PROFILE_STORE_STACK_DIR", stackDir.toString());
        builder.environment().put("ES_JAVA_HOME", jdk17().toString());
        var process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("./run-local cannot run on this machine yet").contains("ES_JAVA_HOME")
                .doesNotContain("starting the backing services").doesNotContain("Exception");
        assertThat(stackDir).as("nothing was started or made").doesNotExist();
    }

    @Test
    void runLocalRefusesAnArgumentItDoesNotKnowBeforeAnythingElse() throws Exception {
        // `./run-local status` once started the whole stack: unknown words were ignored
        var refused = runLocal("status");
        assertThat(refused.exit()).as(refused.output()).isEqualTo(2);
        assertThat(refused.output()).contains("./run-local does not understand: status").contains("usage: ./run-local")
                .doesNotContain("cannot run on this machine").doesNotContain("starting the backing services");
        assertThat(runLocal("--demo", "many").exit()).isEqualTo(2);

        // the script itself answers before it builds anything (no Maven needed to be told)
        var script = new ProcessBuilder("./run-local", "status").redirectErrorStream(true).start();
        String scriptOutput = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(script.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(script.exitValue()).as(scriptOutput).isEqualTo(2);
        assertThat(scriptOutput).contains("./run-local does not understand: status").doesNotContain("building");

        var help = runLocal("--help");
        assertThat(help.exit()).as(help.output()).isZero();
        assertThat(help.output()).contains("usage: ./run-local").contains("--demo N");
        assertThat(empty.resolve("stack")).as("nothing was started or made").doesNotExist();
    }

    record Run(int exit, String output) {
    }

    /** RunLocal in a child JVM whose stack could not start (its JDK for Elasticsearch is too old). */
    private Run runLocal(String... args) throws Exception {
        var line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", ChildClasspath.current(), RunLocal.class.getName()));
        line.addAll(List.of(args));
        var builder = new ProcessBuilder(line).redirectErrorStream(true);
        builder.environment().put("PROFILE_STORE_STACK", "local");
        builder.environment().put("PROFILE_STORE_STACK_DIR", empty.resolve("stack").toString());
        builder.environment().put("ES_JAVA_HOME", jdk17().toString());
        var process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), output);
    }

    private static Map<String, String> missing(Prerequisites check) {
        var missing = new HashMap<String, String>();
        check.forStack().stream().filter(f -> !f.present()).forEach(f -> missing.put(f.what(), f.detail()));
        check.forTests().stream().filter(f -> !f.present()).forEach(f -> missing.put(f.what(), f.detail()));
        return missing;
    }

    private StackSettings settings(Map<String, String> values) {
        var all = new HashMap<>(values);
        all.put("PROFILE_STORE_STACK", "local");
        all.put("PROFILE_STORE_STACK_DIR", empty.resolve("stack").toString());
        return StackSettings.from(all);
    }
}
