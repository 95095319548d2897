package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Images deployed by digest: the chart runs repository@digest when a digest is given and refuses a tag alone where
 * image.requireDigest says so; each environment of flux/ requires one, and takes it from the release workflow, which
 * writes the digest it pushed with .ci/pin-image (ReleaseWorkflowPinsTest).
 */
class ImageDigestTest {

    static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    static final String A_DIGEST = "sha256:" + "0123456789abcdef".repeat(4);
    static final Path PIN = Charts.PROJECT.resolve(".ci/pin-image");

    @TempDir
    Path temp;

    @Test
    void aDigestWinsOverTheTagInEveryPod() {
        var docs = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("image.digest", A_DIGEST)));
        var pods = ChartLeastPrivilegeTest.pods(docs);
        pods.keySet().removeIf(k -> k.startsWith("Pod/"));
        assertThat(pods).hasSize(5);
        pods.forEach((name, pod) -> assertThat(pod.path("containers").get(0).path("image").asText()).as(name)
                .isEqualTo("ghcr.io/profile-store/profile-store@" + A_DIGEST));
    }

    @Test
    void aTagAloneIsRefusedWhereADigestIsRequired() {
        assertThatThrownBy(() -> Charts.template(Values.PRODUCTION, Map.of("image.requireDigest", true)))
                .hasMessageContaining("image.digest");
        var docs = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("image.requireDigest", true,
                "image.digest", A_DIGEST)));
        assertThat(Charts.named(docs, "Deployment", "profile-store-api").findValuesAsText("image"))
                .containsOnly("ghcr.io/profile-store/profile-store@" + A_DIGEST);
        assertThatThrownBy(() -> Charts.template(Values.DEFAULT, Map.of("image.digest", "sha256:abc")))
                .as("a digest that is none").hasMessageContaining("values don't meet the specifications of the schema");
    }

    /** Each environment requires a digest and says where it comes from: the release workflow's pin. */
    @ParameterizedTest
    @ValueSource(strings = {"staging", "production"})
    void everyEnvironmentRequiresADigest(String env) throws IOException {
        var file = Charts.PROJECT.resolve("flux/apps/" + env + "/profile-store-values.yaml");
        var image = Charts.named(Charts.parse(Files.readString(file)), "HelmRelease", "profile-store")
                .path("spec").path("values").path("image");
        assertThat(image.path("requireDigest").asBoolean()).as("%s refuses a tag alone", env).isTrue();
        assertThat(image.path("tag").asText()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(image.has("digest")).as("%s names its digest", env).isTrue();
        var digest = image.path("digest").asText();
        assertThat(digest.isEmpty() || DIGEST.matcher(digest).matches()).as("%s digest %s", env, digest).isTrue();
        assertThat(Files.readString(file)).as("where the digest comes from").contains(".ci/pin-image");
    }

    /** .ci/pin-image writes a tag and a digest into an environment's file, and nothing else; a bad digest is refused. */
    @Test
    void pinImageWritesTheTagAndDigestIntoAnEnvironment() throws Exception {
        var original = Charts.PROJECT.resolve("flux/apps/staging/profile-store-values.yaml");
        var copy = temp.resolve("profile-store-values.yaml");
        Files.copy(original, copy);
        var run = Tools.run(List.of("bash", PIN.toString(), copy.toString(), "1.2.3", A_DIGEST), Charts.PROJECT);
        assertThat(run.exitCode()).as(run.output()).isZero();
        var image = image(copy);
        assertThat(image.path("tag").asText()).isEqualTo("1.2.3");
        assertThat(image.path("digest").asText()).isEqualTo(A_DIGEST);
        assertThat(image.path("requireDigest").asBoolean()).isTrue();
        // the rest of the file is as it was
        assertThat(Files.readString(copy).lines().filter(l -> !l.matches(" *(tag|digest):.*")).toList())
                .isEqualTo(Files.readString(original).lines().filter(l -> !l.matches(" *(tag|digest):.*")).toList());
        var shown = Tools.run(List.of("bash", PIN.toString(), "--show", copy.toString()), Charts.PROJECT);
        assertThat(shown.output().trim()).isEqualTo("1.2.3 " + A_DIGEST);

        for (var bad : List.of(List.of("1.2.3", "sha256:abc"), List.of("1.2.3", "latest"), List.of("v1", A_DIGEST))) {
            var refused = Tools.run(List.of("bash", PIN.toString(), copy.toString(), bad.get(0), bad.get(1)), Charts.PROJECT);
            assertThat(refused.exitCode()).as("%s: %s", bad, refused.output()).isNotZero();
            assertThat(image(copy).path("digest").asText()).isEqualTo(A_DIGEST);
        }
    }

    private static JsonNode image(Path file) throws IOException {
        return Charts.named(Charts.parse(Files.readString(file)), "HelmRelease", "profile-store")
                .path("spec").path("values").path("image");
    }
}
