package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the release workflow runs on is pinned by digest, and what it pushes is pinned by digest where it is deployed:
 * every container it names (a job's container, a service, a docker:// step) is name@sha256:<digest>, as is the
 * chart's test image; after the push, a job writes the pushed image's digest into staging's values with
 * .ci/pin-image. Offline, without node (ReleaseWorkflowIT validates the workflow against GitHub's schema).
 */
class ReleaseWorkflowPinsTest {

    static final Pattern BY_DIGEST = Pattern.compile("[^@\\s]+@sha256:[0-9a-f]{64}");

    @Test
    void everyContainerIsPinnedByDigest() throws IOException {
        var containers = containers(workflow());
        assertThat(containers).as("containers the workflow names").isNotEmpty()
                .allSatisfy(image -> assertThat(image).matches(BY_DIGEST));
        // .ci/run runs on the machine it is given and names no container; if it ever does, it is pinned too
        var ci = Files.readString(Charts.PROJECT.resolve(".ci/run"));
        var named = Pattern.compile("(?:docker://|image:\\s*)(\\S+)").matcher(ci);
        while (named.find()) {
            assertThat(named.group(1)).as(".ci/run names a container").matches(BY_DIGEST);
        }
        var test = Charts.YAML.readTree(Charts.CHART.resolve("values.yaml").toFile()).path("tests").path("image").asText();
        assertThat(test).as("the helm test's image").matches(BY_DIGEST);
    }

    /** The check sees what it must: a container by tag alone, in any of the three places, is caught. */
    @Test
    void aContainerByTagIsCaught() throws IOException {
        var workflow = Charts.YAML.readTree("""
                jobs:
                  a:
                    container: debian:12
                  b:
                    container:
                      image: debian:12@sha256:%s
                    services:
                      db:
                        image: postgres:15
                    steps:
                      - uses: docker://alpine:3.20
                """.formatted("0".repeat(64)));
        assertThat(containers(workflow)).containsExactlyInAnyOrder("debian:12", "debian:12@sha256:" + "0".repeat(64),
                "postgres:15", "alpine:3.20");
        assertThat(containers(workflow)).filteredOn(c -> !BY_DIGEST.matcher(c).matches()).hasSize(3);
    }

    @Test
    void theDigestPushedIsWrittenIntoStaging() throws IOException {
        var jobs = workflow().path("jobs");
        var publish = jobs.path("publish");
        var push = steps(publish).stream().filter(s -> s.contains("skopeo copy")).findFirst().orElseThrow();
        assertThat(push).as("skopeo records the digest it pushed").contains("--digestfile");
        assertThat(publish.path("outputs").path("digest").asText()).isNotEmpty();

        var pin = jobs.path("pin-staging");
        assertThat(pin.path("needs").asText()).isEqualTo("publish");
        assertThat(pin.path("permissions").path("contents").asText()).isEqualTo("write");
        assertThat(pin.path("permissions").has("packages")).isFalse();
        assertThat(pin.has("container")).isFalse();
        var script = String.join("\n", steps(pin));
        assertThat(script).contains(".ci/pin-image flux/apps/staging/profile-store-values.yaml")
                .contains("git push origin HEAD:main");
        assertThat(pin.path("env").path("DIGEST").asText()).contains("needs.publish.outputs.digest");
        // checked out at main, where Flux reads staging's values, not at the tag
        var checkout = pin.path("steps").get(0);
        assertThat(checkout.path("uses").asText()).startsWith("actions/checkout@");
        assertThat(checkout.path("with").path("ref").asText()).isEqualTo("main");
    }

    static JsonNode workflow() throws IOException {
        return Charts.YAML.readTree(ReleaseWorkflowIT.WORKFLOW.toFile());
    }

    /** Every container image a workflow names: jobs' containers (a string or its image), services, docker:// steps. */
    static List<String> containers(JsonNode workflow) {
        var images = new ArrayList<String>();
        for (var job : workflow.path("jobs")) {
            var container = job.path("container");
            if (container.isTextual()) {
                images.add(container.asText());
            } else if (container.has("image")) {
                images.add(container.path("image").asText());
            }
            job.path("services").forEach(service -> images.add(service.path("image").asText()));
            job.path("steps").forEach(step -> {
                var uses = step.path("uses").asText();
                if (uses.startsWith("docker://")) {
                    images.add(uses.substring("docker://".length()));
                }
            });
        }
        return images;
    }

    private static List<String> steps(JsonNode job) {
        var steps = new ArrayList<String>();
        job.path("steps").forEach(s -> steps.add(s.path("run").asText("") + " " + s.path("uses").asText("")));
        return steps;
    }
}
