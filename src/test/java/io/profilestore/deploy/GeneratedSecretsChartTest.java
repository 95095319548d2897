package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * helm/generated-secrets, as flux/infrastructure/instances/base/generated-secrets.yaml installs it: every password a
 * key store of flux/ or of the chart is made with comes from it, made at random (never the same twice, so never a
 * value written down), kept across upgrades (lookup) and across an uninstall.
 */
class GeneratedSecretsChartTest {

    static final Path CHART = Charts.PROJECT.resolve("helm/generated-secrets");
    static final Path RELEASE = Charts.PROJECT.resolve("flux/infrastructure/instances/base/generated-secrets.yaml");

    @TempDir
    Path temp;

    /**
     * helm-java's template asks a cluster for lookup; with none here, the chart is rendered from a copy whose lookup
     * answers what the cluster would: nothing (a first install), or the Secret as it is (an upgrade).
     */
    static final String LOOKUP = "lookup \"v1\" \"Secret\" $.Release.Namespace .name";

    @Test
    void eachPasswordIsRandomAndKept() throws IOException {
        var first = render("dict");
        var second = render("dict");
        var names = new ArrayList<String>();
        for (var secret : Charts.ofKind(first, "Secret")) {
            var name = secret.path("metadata").path("name").asText();
            names.add(name);
            assertThat(secret.path("metadata").path("annotations").path("helm.sh/resource-policy").asText())
                    .as("%s outlives an uninstall", name).isEqualTo("keep");
            var value = value(secret);
            assertThat(value).as("%s", name).matches("[A-Za-z0-9]{32}");
            assertThat(value(Charts.named(second, "Secret", name))).as("%s is made anew, not written down", name)
                    .isNotEqualTo(value);
        }
        assertThat(names).contains("profiles-cassandra-keystore-password", "profile-store-tls-keystore-password");
        // an existing Secret keeps its value: the template reads it back before it makes one
        assertThat(Files.readString(CHART.resolve("templates/secrets.yaml"))).contains(LOOKUP);
        var existing = "(dict \"data\" (dict \"password\" \"" + Base64.getEncoder().encodeToString(
                "kept-since-the-first-install".getBytes(StandardCharsets.UTF_8)) + "\"))";
        var upgraded = Charts.ofKind(render(existing), "Secret");
        assertThat(upgraded).extracting(secret -> secret.path("metadata").path("name").asText())
                .as("an upgrade renders every Secret of a first install").containsExactlyInAnyOrderElementsOf(names);
        for (var secret : upgraded) {
            assertThat(value(secret)).as("%s", secret.path("metadata").path("name").asText())
                    .isEqualTo("kept-since-the-first-install");
        }
    }

    /** Every key store password that flux/ names (cert-manager's and k8ssandra-operator's) is one it makes. */
    @Test
    void everyKeyStorePasswordOfFluxIsGenerated() throws IOException {
        var generated = new ArrayList<String>();
        release().path("spec").path("values").path("secrets").forEach(s -> generated.add(s.path("name").asText() + "/"
                + s.path("key").asText()));
        var referenced = new ArrayList<String>();
        for (var file : List.of("certificates.yaml", "cassandra.yaml")) {
            var text = Files.readString(RELEASE.resolveSibling(file));
            for (var doc : Charts.parse(text)) {
                for (var field : List.of("passwordSecretRef", "keystorePasswordSecretRef", "truststorePasswordSecretRef")) {
                    for (var ref : doc.findValues(field)) {
                        if (!ref.path("name").asText().equals("profiles-cassandra-tls")) {
                            referenced.add(ref.path("name").asText() + "/" + ref.path("key").asText());
                        }
                    }
                }
            }
        }
        assertThat(referenced).as("key store passwords flux/ names").isNotEmpty();
        assertThat(generated).containsAll(referenced);
        var kustomization = Files.readString(RELEASE.resolveSibling("kustomization.yaml"));
        assertThat(kustomization).contains("- generated-secrets.yaml");
    }

    private List<JsonNode> render(String lookupAnswer) throws IOException {
        var values = temp.resolve("values.yaml");
        Charts.YAML.writeValue(values.toFile(), release().path("spec").path("values"));
        var copy = temp.resolve("copy-" + System.nanoTime()).resolve("generated-secrets");
        Files.createDirectories(copy.resolve("templates"));
        for (var file : List.of("Chart.yaml", "values.yaml", "values.schema.json", "templates/secrets.yaml")) {
            Files.writeString(copy.resolve(file), Files.readString(CHART.resolve(file)).replace(LOOKUP, lookupAnswer));
        }
        return Charts.parse(new Helm(copy).template().withName("generated-secrets").withNamespace(Charts.NAMESPACE)
                .withKubeVersion(Charts.KUBE_VERSION).withValuesFile(values).call());
    }

    private static JsonNode release() throws IOException {
        return Charts.named(Charts.parse(Files.readString(RELEASE)), "HelmRelease", "generated-secrets");
    }

    private static String value(JsonNode secret) {
        var data = secret.path("data");
        assertThat(data.size()).isEqualTo(1);
        return new String(Base64.getDecoder().decode(data.elements().next().asText()), StandardCharsets.UTF_8);
    }
}
