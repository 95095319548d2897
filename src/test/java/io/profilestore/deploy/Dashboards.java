package io.profilestore.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart's Grafana dashboard (helm/profile-store/dashboards/profile-store.json, in the ConfigMap that Grafana's
 * sidecar loads) and its queries: the panels' PromQL and the variables' label_values selectors. The checks here need
 * no tool ({@link #problems}: what every panel must have, and the expressions' brackets, functions and selectors
 * read lexically); the PromQL grammar's parse ({@link #metricNames}) and Grafana's schema ({@link #validate}) run
 * with node, in the integration tests.
 */
public final class Dashboards {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The dashboard's file in the chart, and its key in the ConfigMap. */
    static final String FILE = "dashboards/profile-store.json";
    public static final String KEY = "profile-store.json";
    /** What the grafana chart's sidecar selects dashboards by, unless told otherwise. */
    static final String SIDECAR_LABEL = "grafana_dashboard";
    static final String DASHBOARD_VALIDATOR = "validate-dashboard.mjs";
    /** Every selector of the service's metrics names the release, as the variables pick it. */
    static final String RELEASE = "namespace=\"$namespace\", job=\"$job\"";
    static final String DATASOURCE = "${datasource}";

    /**
     * A query of the dashboard: where it is (a panel's title and refId, or a variable), its PromQL, and whether a
     * panel shows it (a variable's query lists the namespaces and jobs to choose from: it selects no one release).
     */
    public record Query(String where, String expr, boolean ofPanel) {
    }

    /** Grafana's schema check of a dashboard: which schema, and its errors (none when valid). */
    public record Validation(String schema, List<String> errors) {
    }

    private Dashboards() {
    }

    /** The ConfigMaps of a rendering that Grafana's sidecar loads: those with its label. */
    public static List<JsonNode> configMaps(List<JsonNode> docs) {
        return Charts.ofKind(docs, "ConfigMap").stream()
                .filter(d -> d.path("metadata").path("labels").has(SIDECAR_LABEL))
                .toList();
    }

    /** The dashboard of a rendering, parsed from its ConfigMap. */
    public static JsonNode dashboard(List<JsonNode> docs) {
        var maps = configMaps(docs);
        if (maps.size() != 1) {
            throw new AssertionError("one dashboard ConfigMap expected, rendered: " + maps.size());
        }
        return parse(maps.get(0).path("data").path(KEY).asText());
    }

    /** The chart's dashboard file, as it is. */
    static JsonNode file() {
        try {
            return parse(Files.readString(Charts.CHART.resolve(FILE)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("the dashboard is not JSON: " + e.getMessage(), e);
        }
    }

    /** Every panel that shows data: the top-level ones and those inside rows, rows themselves left out. */
    public static List<JsonNode> panels(JsonNode dashboard) {
        var panels = new ArrayList<JsonNode>();
        for (var panel : dashboard.path("panels")) {
            if ("row".equals(panel.path("type").asText())) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((.+),\\s*[a-zA-Z_][a-zA-Z0-9_]*\\)$");

    /** The panels' expressions, and the series selector of each query variable's label_values(). */
    public static List<Query> queries(JsonNode dashboard) {
        var queries = new ArrayList<Query>();
        for (var panel : panels(dashboard)) {
            for (var target : panel.path("targets")) {
                queries.add(new Query(panel.path("title").asText() + " (" + target.path("refId").asText() + ")",
                        target.path("expr").asText(), true));
            }
        }
        for (var variable : dashboard.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asText())) {
                var query = variable.path("query");
                String text = query.isObject() ? query.path("query").asText() : query.asText();
                var matcher = LABEL_VALUES.matcher(text.strip());
                queries.add(new Query("variable " + variable.path("name").asText(),
                        matcher.matches() ? matcher.group(1) : text, false));
            }
        }
        return queries;
    }

    /**
     * An expression as PromQL: Grafana's interval variables, which stand where a duration does, become one. Other
     * variables ($namespace, $job) stand inside label values, strings to PromQL, and are left as they are.
     */
    static String asPromQL(String expr) {
        return expr.replaceAll("\\$(__rate_interval|__interval|__range)\\b|\\$\\{(__rate_interval|__interval|__range)}",
                "5m");
    }

    /** The functions, aggregations and keywords the queries may use: PromQL's, as far as a dashboard needs them. */
    static final Set<String> KNOWN = Set.of("sum", "max", "min", "avg", "count", "topk", "bottomk", "quantile",
            "rate", "irate", "increase", "delta", "deriv", "histogram_quantile", "label_replace", "vector", "time",
            "clamp_min", "clamp_max", "abs", "max_over_time", "min_over_time", "avg_over_time", "absent",
            "by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless");
    private static final Pattern CALL = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\(");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{([^}]*)}");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");

    /**
     * What a dashboard must have, as sentences (none when it has it all): the variables (a Prometheus data source,
     * namespace, job), unique panel ids, and for every panel a title, the data source variable, at least one query
     * with a refId, the same data source; every query's brackets balanced, its calls known, and each metric a panel
     * reads selected with the release's namespace and job.
     */
    public static List<String> problems(JsonNode dashboard) {
        var problems = new ArrayList<String>();
        var variables = new HashSet<String>();
        for (var variable : dashboard.path("templating").path("list")) {
            variables.add(variable.path("name").asText());
        }
        for (var name : List.of("datasource", "namespace", "job")) {
            if (!variables.contains(name)) {
                problems.add("no variable " + name);
            }
        }
        var ids = new HashSet<Integer>();
        for (var panel : dashboard.path("panels")) {
            if (!ids.add(panel.path("id").asInt(-1))) {
                problems.add("panel id " + panel.path("id") + " is not unique");
            }
            panel.path("panels").forEach(inner -> {
                if (!ids.add(inner.path("id").asInt(-1))) {
                    problems.add("panel id " + inner.path("id") + " is not unique");
                }
            });
        }
        for (var panel : panels(dashboard)) {
            String title = panel.path("title").asText();
            String name = title.isBlank() ? "panel " + panel.path("id") : title;
            if (title.isBlank()) {
                problems.add(name + ": no title");
            }
            if (!isOurDatasource(panel.path("datasource"))) {
                problems.add(name + ": its data source is not the " + DATASOURCE + " variable: " + panel.path("datasource"));
            }
            if (panel.path("targets").isEmpty()) {
                problems.add(name + ": no query");
            }
            for (var target : panel.path("targets")) {
                if (target.path("refId").asText().isBlank() || target.path("expr").asText().isBlank()) {
                    problems.add(name + ": a query without a refId or an expression: " + target);
                }
                if (target.has("datasource") && !isOurDatasource(target.path("datasource"))) {
                    problems.add(name + ": a query's data source is not the panel's: " + target.path("datasource"));
                }
            }
        }
        for (var query : queries(dashboard)) {
            problems.addAll(expressionProblems(query));
        }
        return problems;
    }

    private static boolean isOurDatasource(JsonNode datasource) {
        return "prometheus".equals(datasource.path("type").asText()) && DATASOURCE.equals(datasource.path("uid").asText());
    }

    /** An expression read lexically: brackets, calls, selectors. The PromQL grammar's parse is the IT's part. */
    static List<String> expressionProblems(Query query) {
        var problems = new ArrayList<String>();
        String expr = query.expr();
        // label values may hold any character: brackets are counted outside them
        String code = STRING.matcher(expr).replaceAll("\"\"");
        var open = new ArrayList<Character>();
        for (char c : code.toCharArray()) {
            switch (c) {
                case '(', '[', '{' -> open.add(c);
                case ')', ']', '}' -> {
                    char expected = c == ')' ? '(' : c == ']' ? '[' : '{';
                    if (open.isEmpty() || open.remove(open.size() - 1) != expected) {
                        problems.add(query.where() + ": unbalanced '" + c + "' in " + expr);
                        return problems;
                    }
                }
                default -> { }
            }
        }
        if (!open.isEmpty() || code.chars().filter(c -> c == '"').count() % 2 != 0) {
            problems.add(query.where() + ": unclosed " + open + " in " + expr);
            return problems;
        }
        Matcher call = CALL.matcher(code);
        while (call.find()) {
            if (!KNOWN.contains(call.group(1))) {
                problems.add(query.where() + ": unknown function " + call.group(1) + " in " + expr);
            }
        }
        if (query.ofPanel()) {
            Matcher selector = SELECTOR.matcher(expr);
            int selectors = 0;
            while (selector.find()) {
                selectors++;
                if (!selector.group(2).startsWith(RELEASE)) {
                    problems.add(query.where() + ": " + selector.group(1) + " is not selected with " + RELEASE);
                }
            }
            if (selectors == 0) {
                problems.add(query.where() + ": selects no metric with " + RELEASE + ": " + expr);
            }
        }
        return problems;
    }

    /**
     * The metric names of every query, from the parse tree of the PromQL grammar (src/test/manifests,
     * validate-promql.mjs, run with node); fails when a query is not valid PromQL.
     */
    public static Set<String> metricNames(JsonNode dashboard) {
        var checked = check(dashboard);
        var errors = AlertRules.errorsOf(checked);
        if (!errors.isEmpty()) {
            throw new AssertionError("the dashboard's queries are not valid PromQL:\n" + String.join("\n", errors));
        }
        var names = new TreeSet<String>();
        checked.forEach(c -> names.addAll(c.metrics()));
        return names;
    }

    /** Every query checked as PromQL by the Prometheus project's grammar and type checks, in the dashboard's order. */
    static List<AlertRules.Checked> check(JsonNode dashboard) {
        var input = JSON.createArrayNode();
        for (var query : queries(dashboard)) {
            input.addObject().put("name", query.where()).put("expr", asPromQL(query.expr()));
        }
        return AlertRules.check(input);
    }

    /** The dashboard against Grafana's schema (src/test/manifests, validate-dashboard.mjs, run with node). */
    static Validation validate(JsonNode dashboard) {
        if (!Files.isDirectory(Tools.VALIDATOR_DIR.resolve("node_modules/@grafana/schema"))) {
            throw new AssertionError("the dashboard validator's packages are not installed in " + Tools.VALIDATOR_DIR
                    + ": Maven installs them before the integration tests");
        }
        try {
            var file = Files.createTempFile("dashboard", ".json");
            try {
                JSON.writeValue(file.toFile(), dashboard);
                var result = Tools.run(List.of("node", Tools.VALIDATOR_DIR.resolve(DASHBOARD_VALIDATOR).toString(),
                        file.toString()), Tools.VALIDATOR_DIR);
                JsonNode report;
                try {
                    report = JSON.readTree(result.output());
                } catch (IOException e) {
                    throw new AssertionError("the dashboard validator did not answer in JSON (exit code "
                            + result.exitCode() + "):\n" + result.output(), e);
                }
                var errors = new ArrayList<String>();
                report.path("errors").forEach(e -> errors.add(e.asText()));
                if ((result.exitCode() != 0) == errors.isEmpty() || !report.hasNonNull("schema")) {
                    throw new AssertionError("the dashboard validator's report does not match its exit code "
                            + result.exitCode() + ":\n" + result.output());
                }
                return new Validation(report.path("schema").asText(), List.copyOf(errors));
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
