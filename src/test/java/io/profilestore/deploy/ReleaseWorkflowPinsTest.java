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
 * .ci/pin-image. The pushed image is signed by its digest, keylessly, with its SBOM attested, before staging runs it.
 * Offline, without node (ReleaseWorkflowIT validates the workflow against GitHub's schema).
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
        assertThat(needs(pin)).as("staging runs a signed image only").containsExactlyInAnyOrder("publish", "sign");
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

    /**
     * The SBOM: CycloneDX, by Syft (both pinned), of the very archive the tests proved, in a job whose token only reads.
     * The signature: cosign (pinned) signs the pushed image by its digest with the job's OIDC identity (no key), attests
     * the SBOM to the same digest, and verifies both as a deployment would. Only that job may ask for an OIDC token, and
     * it runs no action but cosign's installer and the artifact download, so no other code can sign as the release.
     */
    @Test
    void theImageIsSignedByItsDigestAndItsSbomAttested() throws IOException {
        var workflow = workflow();
        var jobs = workflow.path("jobs");
        var sbom = jobs.path("sbom");
        assertThat(needs(sbom)).containsExactly("test");
        assertThat(permissions(sbom)).containsExactly("contents=read");
        assertThat(sbom.has("container")).isFalse();
        var syft = stepUsing(sbom, "anchore/sbom-action");
        assertThat(syft.path("uses").asText()).matches(ReleaseWorkflowIT.PINNED.pattern() + ".*");
        var with = syft.path("with");
        assertThat(with.path("image").asText()).as("the archive ImageIT proved and publish pushed")
                .isEqualTo("oci-archive:target/jib-image.tar");
        assertThat(with.path("format").asText()).isEqualTo("cyclonedx-json");
        assertThat(with.path("syft-version").asText()).as("Syft itself pinned").matches("v\\d+\\.\\d+\\.\\d+");
        var file = with.path("output-file").asText();
        assertThat(file).isNotEmpty();
        var kept = stepUsing(sbom, "actions/upload-artifact").path("with");
        assertThat(kept.path("path").asText()).isEqualTo(file);
        assertThat(kept.path("if-no-files-found").asText()).isEqualTo("error");

        var publish = jobs.path("publish");
        assertThat(publish.path("outputs").path("ref").asText()).contains("steps.push.outputs.ref");
        assertThat(steps(publish).stream().filter(s -> s.contains("skopeo copy")).findFirst().orElseThrow())
                .as("the image by digest, not by tag").contains("ref=${IMAGE%:*}@$digest");

        var sign = jobs.path("sign");
        assertThat(needs(sign)).containsExactlyInAnyOrder("publish", "sbom");
        assertThat(permissions(sign)).containsExactlyInAnyOrder("contents=read", "packages=write", "id-token=write");
        assertThat(sign.has("container")).isFalse();
        assertThat(sign.path("env").path("REF").asText()).isEqualTo("${{ needs.publish.outputs.ref }}");
        var actions = new ArrayList<String>();
        sign.path("steps").forEach(step -> {
            if (step.has("uses")) {
                actions.add(step.path("uses").asText().replaceFirst("@.*", ""));
            }
        });
        assertThat(actions).containsExactlyInAnyOrder("sigstore/cosign-installer", "actions/download-artifact");
        var installer = stepUsing(sign, "sigstore/cosign-installer");
        assertThat(installer.path("uses").asText()).matches(ReleaseWorkflowIT.PINNED.pattern() + ".*");
        assertThat(installer.path("with").path("cosign-release").asText()).as("cosign itself pinned").matches("v\\d+\\.\\d+\\.\\d+");
        assertThat(stepUsing(sign, "actions/download-artifact").path("with").path("name").asText()).isEqualTo(
                stepUsing(sbom, "actions/upload-artifact").path("with").path("name").asText());

        var script = String.join("\n", steps(sign));
        assertThat(script).contains("cosign sign --yes \"$REF\"")
                .contains("cosign attest --yes --type cyclonedx --predicate " + file + " \"$REF\"")
                .contains("cosign verify --certificate-identity \"$id\" --certificate-oidc-issuer \"$issuer\" \"$REF\"")
                .contains("cosign verify-attestation --type cyclonedx --certificate-identity \"$id\" "
                        + "--certificate-oidc-issuer \"$issuer\" \"$REF\"")
                .contains("id=\"https://github.com/$GITHUB_WORKFLOW_REF\"")
                .contains("issuer=https://token.actions.githubusercontent.com")
                .contains("--password-stdin");
        assertThat(script.indexOf("cosign sign")).isLessThan(script.indexOf("cosign verify "));
        // every cosign command names the image by the digest REF holds, and REF is checked to be one
        assertThat(script.lines().filter(l -> l.matches("\\s*cosign (sign|attest|verify|verify-attestation) .*")))
                .hasSize(4).allMatch(l -> l.trim().endsWith("\"$REF\"") || l.trim().endsWith("\"$REF\" > /dev/null"));
        assertThat(script).contains("[[ $REF =~ ^ghcr\\.io/[^@:]+@sha256:[0-9a-f]{64}$ ]]");

        // only the signing job may ask for an OIDC token
        assertThat(workflow.path("permissions").has("id-token")).isFalse();
        workflow.path("jobs").fields().forEachRemaining(job -> {
            if (!job.getKey().equals("sign")) {
                assertThat(job.getValue().path("permissions").has("id-token")).as(job.getKey()).isFalse();
            }
        });
    }

    private static List<String> needs(JsonNode job) {
        var needs = new ArrayList<String>();
        if (job.path("needs").isTextual()) {
            needs.add(job.path("needs").asText());
        }
        job.path("needs").forEach(n -> needs.add(n.asText()));
        return needs;
    }

    private static List<String> permissions(JsonNode job) {
        var permissions = new ArrayList<String>();
        job.path("permissions").fields().forEachRemaining(p -> permissions.add(p.getKey() + "=" + p.getValue().asText()));
        return permissions;
    }

    private static JsonNode stepUsing(JsonNode job, String action) {
        for (var step : job.path("steps")) {
            if (step.path("uses").asText().startsWith(action + "@")) {
                return step;
            }
        }
        throw new AssertionError("no step uses " + action);
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
