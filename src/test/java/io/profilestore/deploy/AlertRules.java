package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The alerting rules of the chart's PrometheusRule, and their expressions as PromQL: each is parsed with the
 * Prometheus project's own grammar and type-checked (src/test/manifests/validate-promql.mjs, run with node), which
 * also names the metrics each expression selects, from the parse tree: a metric is found whether it has a selector in
 * braces or not, and a function, a label or a string is never taken for one.
 */
public final class AlertRules {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final String PROMQL_VALIDATOR = "validate-promql.mjs";

    /** One rule as the PromQL validator saw it: its errors (none when valid), and the metrics it selects. */
    public record Checked(String name, String expr, List<String> errors, Set<String> metrics) {
    }

    private AlertRules() {
    }

    /** Every alerting rule of the PrometheusRules of a rendering. */
    public static List<JsonNode> rules(List<JsonNode> docs) {
        var rules = new ArrayList<JsonNode>();
        for (var rule : Charts.ofKind(docs, "PrometheusRule")) {
            rule.path("spec").path("groups").forEach(group -> group.path("rules").forEach(rules::add));
        }
        return rules;
    }

    /** A rule's name in messages: the alert, and its CronJob when there is one alert per CronJob. */
    static String name(JsonNode rule) {
        var cronJob = rule.path("labels").path("cronjob").asText("");
        return rule.path("alert").asText() + (cronJob.isEmpty() ? "" : " (cronjob " + cronJob + ")");
    }

    /** Every rule of a rendering checked as PromQL, in the order of the rendering. */
    public static List<Checked> check(List<JsonNode> docs) {
        var input = JSON.createArrayNode();
        for (var rule : rules(docs)) {
            var entry = input.addObject().put("name", name(rule)).put("expr", rule.path("expr").asText());
            if (rule.has("for")) {
                entry.put("for", rule.path("for").asText());
            }
        }
        return check(input);
    }

    /** Rules given as {@code [{"name", "expr", "for"}]} checked as PromQL. */
    static List<Checked> check(ArrayNode rules) {
        if (!Files.isDirectory(Tools.VALIDATOR_DIR.resolve("node_modules/@prometheus-io/lezer-promql"))) {
            throw new AssertionError("the PromQL validator's packages are not installed in " + Tools.VALIDATOR_DIR
                    + ": Maven installs them before the tests");
        }
        try {
            var file = Files.createTempFile("alert-rules", ".json");
            try {
                JSON.writeValue(file.toFile(), rules);
                var result = Tools.run(List.of("node", Tools.VALIDATOR_DIR.resolve(PROMQL_VALIDATOR).toString(),
                        file.toString()), Tools.VALIDATOR_DIR);
                JsonNode report;
                try {
                    report = JSON.readTree(result.output());
                } catch (IOException e) {
                    throw new AssertionError("the PromQL validator did not answer in JSON (exit code "
                            + result.exitCode() + "):\n" + result.output(), e);
                }
                var checked = new ArrayList<Checked>();
                for (var i = 0; i < report.size(); i++) {
                    var r = report.get(i);
                    var errors = new ArrayList<String>();
                    r.path("errors").forEach(e -> errors.add(e.asText()));
                    var metrics = new TreeSet<String>();
                    r.path("metrics").forEach(m -> metrics.add(m.asText()));
                    checked.add(new Checked(r.path("name").asText(), rules.get(i).path("expr").asText(),
                            List.copyOf(errors), metrics));
                }
                if (checked.size() != rules.size() || (result.exitCode() != 0) == errorsOf(checked).isEmpty()) {
                    throw new AssertionError("the PromQL validator's report does not match its rules or its exit code "
                            + result.exitCode() + ":\n" + result.output());
                }
                return checked;
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Each error of the checked rules, prefixed with its rule's name. */
    public static List<String> errorsOf(List<Checked> checked) {
        var errors = new ArrayList<String>();
        checked.forEach(c -> c.errors().forEach(e -> errors.add(c.name() + ": " + e)));
        return errors;
    }

    /** The metric names of every rule of a rendering; fails when an expression is not valid PromQL. */
    public static Set<String> metricNames(List<JsonNode> docs) {
        var checked = check(docs);
        var errors = errorsOf(checked);
        if (!errors.isEmpty()) {
            throw new AssertionError("the alerts' expressions are not valid PromQL:\n" + String.join("\n", errors));
        }
        var names = new TreeSet<String>();
        checked.forEach(c -> names.addAll(c.metrics()));
        return names;
    }
}
