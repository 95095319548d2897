package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The alerting rules of the chart's PrometheusRule and the metric names their expressions read. The template writes
 * every metric with a selector in braces ({@code indexer_lag_ms{namespace="…"}}), so a metric name is an identifier
 * followed by a brace; anything else an expression names must be PromQL's own (a function, an aggregation, a keyword
 * or a label of {@code by (…)}), which {@link #metricNames} checks, so that a metric written without braces cannot
 * slip past the tests.
 */
public final class AlertRules {

    /** PromQL's words that the chart's expressions may use besides metric names. */
    static final Set<String> PROMQL = Set.of("sum", "max", "min", "avg", "count", "rate", "increase", "irate",
            "time", "vector", "label_replace", "absent", "by", "without", "on", "ignoring", "group_left", "group_right",
            "and", "or", "unless", "bool", "offset");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final Pattern METRIC = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{");
    private static final Pattern BRACES = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern WORD = Pattern.compile("(?<![0-9.])[a-zA-Z_:][a-zA-Z0-9_:]*");

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

    /** The metric names one expression reads; fails when it names something that is neither a metric nor PromQL. */
    public static Set<String> metricNames(String expr) {
        var withoutStrings = STRING.matcher(expr).replaceAll("\"\"");
        var names = new TreeSet<String>();
        var metrics = METRIC.matcher(withoutStrings);
        while (metrics.find()) {
            names.add(metrics.group(1));
        }
        var rest = METRIC.matcher(withoutStrings).replaceAll("{");
        rest = BRACES.matcher(rest).replaceAll("");
        rest = RANGE.matcher(rest).replaceAll("");
        rest = GROUPING.matcher(rest).replaceAll("$1");
        var words = WORD.matcher(rest);
        while (words.find()) {
            if (!PROMQL.contains(words.group())) {
                throw new AssertionError("'" + words.group() + "' in the expression is neither PromQL nor a metric "
                        + "with a selector in braces (write metric{...}):\n" + expr);
            }
        }
        return names;
    }

    /** The metric names of every rule of a rendering. */
    public static Set<String> metricNames(List<JsonNode> docs) {
        var names = new TreeSet<String>();
        rules(docs).forEach(rule -> names.addAll(metricNames(rule.path("expr").asText())));
        return names;
    }
}
