package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The chart helm/profile-store, linted and rendered by Helm itself (helm-java runs Helm in-process, offline), with
 * each value set the deployment uses: the defaults, staging and production (the same files Flux's HelmReleases
 * name in valuesFiles). Public for the tests elsewhere that check what the chart renders against the running service
 * (health.PrometheusRuleMetricsIT).
 */
public final class Charts {

    static final Path PROJECT = Path.of(System.getProperty("profileStore.projectDir", ".")).toAbsolutePath().normalize();
    static final Path CHART = PROJECT.resolve("helm/profile-store");
    static final String RELEASE = "profile-store";
    static final String NAMESPACE = "profile-store";
    static final YAMLMapper YAML = new YAMLMapper();
    /** The Kubernetes the manifests are rendered and validated for (kubectl's here is 1.32 too). */
    static final String KUBE_VERSION = "1.32.0";

    /** A value set: the chart's values.yaml, and maybe one environment's file over it. */
    public enum Values {
        DEFAULT(null), STAGING("values-staging.yaml"), PRODUCTION("values-production.yaml");

        final String file;

        Values(String file) {
            this.file = file;
        }
    }

    private static final Map<Values, List<JsonNode>> RENDERED = new ConcurrentHashMap<>();

    private Charts() {
    }

    /**
     * helm template, as Flux's helm-controller would render the release, hooks included. helm-java's template
     * leaves hooks out (it prints the release's manifest only), so the chart is rendered from a copy whose hook
     * annotation key is renamed, which makes Helm treat the hooks as ordinary manifests, and the key is put back in
     * the output. Nothing else differs from the chart.
     */
    public static String template(Values values, Map<String, Object> set) {
        var copy = copyChart();
        try {
            var chart = copy.resolve("profile-store");
            try (Stream<Path> files = Files.walk(chart.resolve("templates"))) {
                for (var file : files.filter(Files::isRegularFile).toList()) {
                    Files.writeString(file, Files.readString(file).replace(HOOK, HOOK_IN_COPY));
                }
            }
            var template = new Helm(chart).template().withName(RELEASE).withNamespace(NAMESPACE)
                    .withKubeVersion(KUBE_VERSION);
            if (values.file != null) {
                template = template.withValuesFile(CHART.resolve(values.file));
            }
            for (var e : set.entrySet()) {
                template = template.set(e.getKey(), e.getValue());
            }
            return template.call().replace(HOOK_IN_COPY, HOOK);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(copy);
        }
    }

    private static final String HOOK = "helm.sh/hook";
    private static final String HOOK_IN_COPY = "profile-store.test/unhooked";

    static List<JsonNode> documents(Values values) {
        return RENDERED.computeIfAbsent(values, v -> parse(template(v, Map.of())));
    }

    public static List<JsonNode> parse(String multiDocument) {
        try (var parser = new YAMLFactory().createParser(multiDocument)) {
            var docs = new ArrayList<JsonNode>();
            var it = YAML.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                var doc = it.next();
                if (doc != null && !doc.isNull() && !doc.isEmpty()) {
                    docs.add(doc);
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<JsonNode> ofKind(List<JsonNode> docs, String kind) {
        return docs.stream().filter(d -> kind.equals(d.path("kind").asText())).toList();
    }

    static JsonNode named(List<JsonNode> docs, String kind, String name) {
        return ofKind(docs, kind).stream()
                .filter(d -> name.equals(d.path("metadata").path("name").asText()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " rendered"));
    }

    /**
     * helm lint --strict with a value set. Helm's lint reads only the chart's values.yaml, so an environment is
     * linted on a copy of the chart whose values.yaml is the environment's file merged over the defaults the way
     * Helm merges values (maps key by key, anything else replaced).
     */
    static LintResult lint(Values values) throws IOException {
        if (values.file == null) {
            return new Helm(CHART).lint().strict().call();
        }
        var copy = copyChart();
        try {
            var chart = copy.resolve("profile-store");
            var merged = merge((ObjectNode) YAML.readTree(CHART.resolve("values.yaml").toFile()),
                    YAML.readTree(CHART.resolve(values.file).toFile()));
            YAML.writeValue(chart.resolve("values.yaml").toFile(), merged);
            return new Helm(chart).lint().strict().call();
        } finally {
            delete(copy);
        }
    }

    /** A copy of the chart in a new temporary folder, as {@code <folder>/profile-store}. */
    private static Path copyChart() {
        try {
            var copy = Files.createTempDirectory("chart-");
            var chart = copy.resolve("profile-store");
            try (Stream<Path> files = Files.walk(CHART)) {
                for (var source : files.toList()) {
                    var target = chart.resolve(CHART.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(source, target);
                    }
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path folder) {
        try (Stream<Path> files = Files.walk(folder)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Values merged the way Helm merges them: maps key by key, anything else replaced. */
    static ObjectNode merge(ObjectNode base, JsonNode over) {
        over.fields().forEachRemaining(e -> {
            var current = base.get(e.getKey());
            if (current instanceof ObjectNode object && e.getValue().isObject()) {
                merge(object, e.getValue());
            } else {
                base.set(e.getKey(), e.getValue());
            }
        });
        return base;
    }

    /** A value set as Helm sees it: the environment's file merged over values.yaml. */
    static JsonNode values(Values values) {
        try {
            var base = (ObjectNode) YAML.readTree(CHART.resolve("values.yaml").toFile());
            return values.file == null ? base : merge(base, YAML.readTree(CHART.resolve(values.file).toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ConfigMaps that carry a profile-store.yml: the API's, the indexer's, migrate's, the CronJobs'. */
    static List<JsonNode> serviceConfigMaps(List<JsonNode> docs) {
        return ofKind(docs, "ConfigMap").stream().filter(d -> d.path("data").has("profile-store.yml")).toList();
    }

    /** The service's YAML out of a rendering's ConfigMap. */
    static String serviceConfig(List<JsonNode> docs) {
        return named(docs, "ConfigMap", RELEASE).path("data").path("profile-store.yml").asText();
    }
}
