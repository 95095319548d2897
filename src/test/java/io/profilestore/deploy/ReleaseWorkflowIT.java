package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release workflow (.github/workflows/release.yml), offline: valid against GitHub's workflow schema, run only
 * for a version tag, pushing only after the tests, the very archive they proved, under the name the chart expects,
 * with actions pinned to a commit.
 */
class ReleaseWorkflowIT {

    static final Path WORKFLOW = Charts.PROJECT.resolve(".github/workflows/release.yml");
    static final Pattern PINNED = Pattern.compile("[^@\\s]+@[0-9a-f]{40}");

    @TempDir
    Path temp;

    @Test
    void theWorkflowIsValidAndTheValidatorRefusesAnInvalidOne() throws IOException {
        var valid = validate(WORKFLOW);
        assertThat(valid.exitCode()).as(valid.output()).isZero();
        assertThat(valid.output()).contains("valid");

        var broken = temp.resolve("broken.yml");
        Files.writeString(broken, Files.readString(WORKFLOW).replace("runs-on:", "runs_on:"));
        var refused = validate(broken);
        assertThat(refused.exitCode()).as("a job without runs-on: %s", refused.output()).isNotZero();
    }

    @Test
    void itRunsForVersionTagsOnlyAndPushesOnlyAfterTheTestsFromAnUnprivilegedJob() throws IOException {
        var workflow = Charts.YAML.readTree(WORKFLOW.toFile());
        // YAML 1.1 reads the key `on` as the boolean true
        var on = workflow.has("on") ? workflow.path("on") : workflow.path("true");
        assertThat(on.size()).as("triggers").isEqualTo(1);
        assertThat(on.path("push").path("tags").get(0).asText()).isEqualTo("v*");
        assertThat(on.path("push").has("branches")).isFalse();
        assertThat(workflow.path("permissions").path("contents").asText()).isEqualTo("read");

        var test = workflow.path("jobs").path("test");
        var publish = workflow.path("jobs").path("publish");
        var tests = steps(test);
        assertThat(indexOf(tests, "GITHUB_REF_NAME")).as("the tag is checked before the tests")
                .isLessThan(indexOf(tests, ".ci/run"));
        assertThat(test.path("permissions").has("packages")).as("the tests' token cannot push").isFalse();
        assertThat(tests).noneMatch(step -> step.contains("skopeo copy") || step.contains("helm push"));

        assertThat(publish.path("needs").asText()).as("publishing waits for the tests").isEqualTo("test");
        assertThat(publish.path("permissions").path("packages").asText()).isEqualTo("write");
        assertThat(publish.has("container")).as("the job that may push runs nothing privileged").isFalse();
        var publishing = steps(publish);
        assertThat(publishing.get(indexOf(publishing, "skopeo copy")))
                .as("the archive ImageIT proved").contains("oci-archive:target/jib-image.tar");
        assertThat(publishing).anyMatch(step -> step.contains("helm push"));
        assertThat(publishing.get(indexOf(publishing, "deploy-file"))).as("the client the test job built, at the tag's version")
                .contains("$client/profile-store-client-$version.jar");
        assertThat(tests.get(indexOf(tests, "client/pom.xml"))).contains("-DnewVersion=\"$version\"");
        assertThat(indexOf(tests, ".ci/run")).as("the client is built once the tests passed")
                .isLessThan(indexOf(tests, "client/pom.xml"));
        assertThat(String.join("\n", publishing)).as("tokens go in on standard input, never on a command line")
                .doesNotContain("--dest-creds").doesNotContain("--password \"");
    }

    /** What `mvn verify` checks for before anything else (Prerequisites): the test job must bring it. */
    @Test
    void theTestJobBringsWhatTheBuildChecksFor() throws IOException {
        var test = Charts.YAML.readTree(WORKFLOW.toFile()).path("jobs").path("test");
        var java = withOf(test, "actions/setup-java").path("java-version").asText();
        assertThat(Integer.parseInt(java)).as("Elasticsearch needs 21 or newer, Cassandra 17 to 23").isBetween(21, 23);
        var node = withOf(test, "actions/setup-node").path("node-version").asText();
        assertThat(Integer.parseInt(node)).as("the manifest validator needs Node.js 20 or newer").isGreaterThanOrEqualTo(20);
        var steps = steps(test);
        assertThat(steps.get(indexOf(steps, "/usr/local/bin/kubectl"))).contains("sha256sum -c");
        assertThat(steps.get(indexOf(steps, "apt-get install"))).contains("maven");
    }

    /** No ${{ }} inside a script: a value from the event or a step goes in through env, never pasted into shell. */
    @Test
    void noScriptInterpolatesExpressions() throws IOException {
        var workflow = Charts.YAML.readTree(WORKFLOW.toFile());
        var scripts = new ArrayList<String>();
        workflow.path("jobs").forEach(job -> job.path("steps").forEach(step -> {
            if (step.has("run")) {
                scripts.add(step.path("run").asText());
            }
        }));
        assertThat(scripts).as("the workflow's scripts").isNotEmpty().noneMatch(script -> script.contains("${{"));
    }

    private static List<String> steps(JsonNode job) {
        var steps = new ArrayList<String>();
        job.path("steps").forEach(s -> steps.add(s.path("run").asText("") + " " + s.path("uses").asText("")));
        return steps;
    }

    private static JsonNode withOf(JsonNode job, String action) {
        for (var step : job.path("steps")) {
            if (step.path("uses").asText().startsWith(action + "@")) {
                return step.path("with");
            }
        }
        throw new AssertionError("the job does not use " + action);
    }

    @Test
    void everyActionIsPinnedToACommit() throws IOException {
        var workflow = Charts.YAML.readTree(WORKFLOW.toFile());
        var uses = new ArrayList<String>();
        for (JsonNode job : workflow.path("jobs")) {
            job.path("steps").forEach(s -> {
                if (s.has("uses")) {
                    uses.add(s.path("uses").asText());
                }
            });
        }
        assertThat(uses).as("actions the workflow uses").isNotEmpty().allMatch(u -> PINNED.matcher(u).matches());
    }

    /** What the release pushes is what the chart runs: the pom's image name is the chart's default. */
    @Test
    void theImageTheBuildNamesIsTheChartsDefault() throws IOException {
        var pom = Files.readString(Charts.PROJECT.resolve("pom.xml"));
        var matcher = Pattern.compile("<image.name>([^<]+)</image.name>").matcher(pom);
        assertThat(matcher.find()).isTrue();
        var values = Charts.YAML.readTree(Charts.CHART.resolve("values.yaml").toFile()).path("image");
        assertThat(matcher.group(1)).isEqualTo(values.path("repository").asText() + ":" + values.path("tag").asText());
        var chart = Charts.YAML.readTree(Charts.CHART.resolve("Chart.yaml").toFile());
        assertThat(chart.path("appVersion").asText()).as("the service's version the chart and the image carry")
                .isEqualTo(values.path("tag").asText());
    }

    private static int indexOf(List<String> runs, String text) {
        for (var i = 0; i < runs.size(); i++) {
            if (runs.get(i).contains(text)) {
                return i;
            }
        }
        throw new AssertionError("no step runs " + text + ": " + runs);
    }

    private static Tools.Result validate(Path workflow) {
        if (!Files.isDirectory(Tools.VALIDATOR_DIR.resolve("node_modules/@action-validator/core"))) {
            throw new AssertionError("the validator's packages are not installed in " + Tools.VALIDATOR_DIR
                    + ": Maven installs them before the tests");
        }
        return Tools.run(List.of("node", Tools.VALIDATOR_DIR.resolve("validate-workflow.mjs").toString(),
                workflow.toString()), Tools.VALIDATOR_DIR);
    }
}
