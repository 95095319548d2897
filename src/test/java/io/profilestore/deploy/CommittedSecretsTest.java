package io.profilestore.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No Secret committed under flux/ or helm/ carries a value written in Git: a password there is readable by everyone
 * who can read the repository. A chart's template may render a Secret only from a template expression (the
 * generated-secrets chart's random value); a plain manifest only when its content is no credential (named here, with
 * why).
 */
class CommittedSecretsTest {

    /** Secrets whose committed content is no credential, by name, with the keys they may carry. */
    static final Map<String, List<String>> NOT_CREDENTIALS = Map.of(
            // ECK's role definitions (flux/infrastructure/instances/base/elasticsearch.yaml): privileges, no password
            "profiles-es-roles", List.of("roles.yml"));

    @Test
    void noCommittedSecretCarriesALiteralValue() throws IOException {
        var files = yamlFiles();
        assertThat(files).as("YAML files under flux/ and helm/").isNotEmpty();
        var seen = new ArrayList<String>();
        for (var file : files) {
            var text = Files.readString(file);
            var relative = Charts.PROJECT.relativize(file).toString();
            if (relative.contains("/templates/")) {
                templatedSecrets(text).forEach(secret -> {
                    seen.add(relative);
                    assertThat(literalLines(secret)).as("%s renders a Secret with literal values", relative).isEmpty();
                });
                continue;
            }
            for (var doc : Charts.parse(text)) {
                if (!doc.path("kind").asText().equals("Secret")) {
                    continue;
                }
                var name = doc.path("metadata").path("name").asText();
                seen.add(relative + " " + name);
                var keys = new ArrayList<String>();
                for (var field : List.of("data", "stringData")) {
                    doc.path(field).fieldNames().forEachRemaining(keys::add);
                }
                assertThat(keys).as("%s: Secret %s holds values in Git", relative, name)
                        .isSubsetOf(NOT_CREDENTIALS.getOrDefault(name, List.of()));
            }
        }
        assertThat(seen).as("the Secrets the scan met (it must meet some to prove it reads them)").isNotEmpty();
    }

    /** The scan finds what it looks for: a committed password is refused, a templated one is not. */
    @Test
    void theScanTellsALiteralFromATemplatedValue() {
        var literal = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\nstringData:\n  password: hunter2\n";
        var templated = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: x\ndata:\n  password: {{ $value }}\n";
        assertThat(templatedSecrets(literal)).hasSize(1);
        assertThat(literalLines(templatedSecrets(literal).get(0))).containsExactly("  password: hunter2");
        assertThat(literalLines(templatedSecrets(templated).get(0))).isEmpty();
    }

    private static List<Path> yamlFiles() throws IOException {
        var files = new ArrayList<Path>();
        for (var root : List.of("flux", "helm")) {
            try (Stream<Path> walk = Files.walk(Charts.PROJECT.resolve(root))) {
                walk.filter(Files::isRegularFile)
                        .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                        .forEach(files::add);
            }
        }
        return files;
    }

    /** The documents of a template file that are Secrets, as text (a template is not YAML until rendered). */
    static List<String> templatedSecrets(String template) {
        return Stream.of(template.split("(?m)^---.*$"))
                .filter(doc -> doc.lines().anyMatch(l -> l.matches("kind:\\s*Secret\\s*")))
                .toList();
    }

    /** The lines under data or stringData whose value is written out rather than rendered from an expression. */
    static List<String> literalLines(String secret) {
        var literal = new ArrayList<String>();
        boolean inData = false;
        for (var line : secret.lines().toList()) {
            if (line.matches("(data|stringData):\\s*")) {
                inData = true;
                continue;
            }
            if (inData && (line.isBlank() || !line.startsWith(" "))) {
                inData = line.isBlank() || line.trim().startsWith("{{");
                continue;
            }
            if (inData && !line.trim().startsWith("{{") && !line.contains("{{")) {
                literal.add(line);
            }
        }
        return literal;
    }

}
