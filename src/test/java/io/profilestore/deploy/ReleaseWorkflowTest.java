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
class ReleaseWorkflowTest {

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
    void itRunsForVersionTagsOnlyAndPushesAfterTheTests() throws IOException {
        var workflow = Charts.YAML.readTree(WORKFLOW.toFile());
        // YAML 1.1 reads the key `on` as the boolean true
        var on = workflow.has("on") ? workflow.path("on") : workflow.path("true");
        assertThat(on.size()).as("triggers").isEqualTo(1);
        assertThat(on.path("push").path("tags").get(0).asText()).isEqualTo("v*");
        assertThat(on.path("push").has("branches")).isFalse();
        assertThat(workflow.path("permissions").path("contents").asText()).isEqualTo("read");

        var steps = workflow.path("jobs").path("release").path("steps");
        var runs = new ArrayList<String>();
        steps.forEach(s -> runs.add(s.path("run").asText("") + " " + s.path("uses").asText("")));
        var tests = indexOf(runs, ".ci/run");
        var imagePush = indexOf(runs, "skopeo copy");
        var chartPush = indexOf(runs, "helm push");
        var versionCheck = indexOf(runs, "GITHUB_REF_NAME");
        assertThat(versionCheck).as("the tag is checked first").isLessThan(tests);
        assertThat(tests).as("the tests run before anything is pushed").isLessThan(imagePush).isLessThan(chartPush);
        assertThat(runs.get(imagePush)).as("the archive ImageIT proved").contains("oci-archive:target/jib-image.tar");
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
