package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.deploy.Charts.Values;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Images deployed by digest: the chart runs repository@digest when a digest is given and refuses a tag alone where
 * image.requireDigest says so; each environment of flux/ requires one, and takes it from the release workflow, which
 * writes the digest it pushed with .ci/pin-image (ReleaseWorkflowPinsTest). Every other image flux/ and helm/ name
 * (the backing services', the helm test's, an operator's) is name:tag@sha256:digest, or on a short list that says why
 * not.
 */
class ImageDigestTest {

    static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    static final String A_DIGEST = "sha256:" + "0123456789abcdef".repeat(4);
    static final Path PIN = Charts.PROJECT.resolve(".ci/pin-image");
    /** An image named by tag and digest: the tag for people, the digest for the runtime. */
    static final Pattern TAG_AND_DIGEST = Pattern.compile("[^@\\s:]+(:\\d+)?(/[^@\\s:]+)*:[^@\\s:/]+@sha256:[0-9a-f]{64}");

    /**
     * Images flux/ names by tag alone, each with why. Nothing may stay here without a reason, and an entry that names
     * no image any more fails the test, so the list only shrinks.
     */
    static final Map<String, String> BY_TAG_ALONE = Map.of(
            "rabbitmqoperator/cluster-operator:2.16.1", "the RabbitMQ cluster operator, set through the Flux "
                    + "Kustomization's images (flux/infrastructure/controllers/rabbitmq-cluster-operator.yaml): no "
                    + "published digest of this tag could be found offline, and none is made up; add its digest there "
                    + "(images[].digest) from `crane digest rabbitmqoperator/cluster-operator:2.16.1`");

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

    /**
     * Every image reference in flux/'s and the chart's YAML (an image or imageName field, a kustomize images entry) and
     * every container the chart renders carries its digest, but for the named exceptions.
     */
    @Test
    void everyImageFluxAndTheChartNameIsPinnedByDigest() throws IOException {
        var references = new LinkedHashMap<String, String>();
        try (Stream<Path> files = Stream.concat(Files.walk(Flux.FOLDER), Files.walk(Charts.PROJECT.resolve("helm")))) {
            for (var file : files.filter(f -> f.toString().endsWith(".yaml") && !f.toString().contains("/templates/")).toList()) {
                for (var doc : Charts.parse(Files.readString(file))) {
                    imageReferences(doc, Charts.PROJECT.relativize(file).toString(), references);
                }
            }
        }
        var docs = Charts.parse(Charts.template(Values.PRODUCTION, Map.of("image.digest", A_DIGEST)));
        ChartLeastPrivilegeTest.pods(docs).forEach((name, pod) -> {
            for (var kind : List.of("initContainers", "containers")) {
                pod.path(kind).forEach(c -> references.put(c.path("image").asText(), "rendered " + name));
            }
        });
        assertThat(references).as("the image references found").hasSizeGreaterThanOrEqualTo(4)
                .containsValue("flux/infrastructure/instances/base/rabbitmq.yaml")
                .containsValue("flux/infrastructure/instances/base/postgres.yaml");

        var byTag = new ArrayList<String>();
        references.forEach((image, where) -> {
            if (image.equals("ghcr.io/profile-store/profile-store@" + A_DIGEST)) {
                return; // the service's own, whose digest the release writes (the tests above)
            }
            if (!TAG_AND_DIGEST.matcher(image).matches()) {
                byTag.add(image + " (" + where + ")");
            }
        });
        assertThat(byTag).as("images without tag and digest").allSatisfy(image ->
                assertThat(BY_TAG_ALONE.keySet()).as("an exception with its reason").anyMatch(image::startsWith));
        assertThat(BY_TAG_ALONE.keySet()).as("exceptions still needed").allSatisfy(image ->
                assertThat(byTag).anyMatch(found -> found.startsWith(image + " ")));
    }

    /** The check sees what it must: each kind of reference, by tag or by digest, in any file's shape. */
    @Test
    void theImageScanFindsEveryKindOfReference() throws IOException {
        var references = new LinkedHashMap<String, String>();
        var digest = "sha256:" + "0".repeat(64);
        imageReferences(Charts.YAML.readTree("""
                spec:
                  image: rabbitmq:3.13.7-management
                  imageName: ghcr.io/cloudnative-pg/postgresql:15.13@%s
                  podTemplate:
                    containers:
                      - image: registry.example:5000/a/b:1.0@%s
                  images:
                    - name: controller
                      newName: example/operator
                      newTag: 1.2.3
                    - name: example/other
                      newTag: 4.5.6
                      digest: %s
                  values:
                    image:
                      repository: example/not-a-reference
                """.formatted(digest, digest, digest)), "a file", references);
        assertThat(references.keySet()).containsExactlyInAnyOrder("rabbitmq:3.13.7-management",
                "ghcr.io/cloudnative-pg/postgresql:15.13@" + digest, "registry.example:5000/a/b:1.0@" + digest,
                "example/operator:1.2.3", "example/other:4.5.6@" + digest);
        assertThat(references.keySet()).filteredOn(i -> TAG_AND_DIGEST.matcher(i).matches())
                .containsExactlyInAnyOrder("ghcr.io/cloudnative-pg/postgresql:15.13@" + digest,
                        "registry.example:5000/a/b:1.0@" + digest, "example/other:4.5.6@" + digest);
        assertThat(TAG_AND_DIGEST.matcher("example/other@" + digest).matches()).as("a digest without its tag").isFalse();
    }

    /** The image references in a YAML tree: image and imageName fields that are text, kustomize images entries. */
    static void imageReferences(JsonNode node, String where, Map<String, String> references) {
        if (node.isArray()) {
            node.forEach(child -> imageReferences(child, where, references));
            return;
        }
        node.fields().forEachRemaining(e -> {
            var value = e.getValue();
            if ((e.getKey().equals("image") || e.getKey().equals("imageName")) && value.isTextual()) {
                references.put(value.asText(), where);
            } else if (e.getKey().equals("images") && value.isArray()) {
                for (var entry : value) {
                    if (entry.has("newTag") || entry.has("digest")) {
                        var name = entry.path(entry.has("newName") ? "newName" : "name").asText();
                        var tag = entry.has("newTag") ? ":" + entry.path("newTag").asText() : "";
                        var digest = entry.has("digest") ? "@" + entry.path("digest").asText() : "";
                        references.put(name + tag + digest, where);
                    }
                }
            } else {
                imageReferences(value, where, references);
            }
        });
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
