package io.profilestore.docs;

import static io.profilestore.docs.DocsTest.PROJECT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.util.DataSize;
import io.dropwizard.util.Duration;
import io.profilestore.auth.JwtSettings;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.config.ProfileStoreServerFactory;
import io.profilestore.docs.DocsTest.Markdown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A default the docs name is the one the service has: the bundled profile-store.yml's {@code ${NAME:-default}} and
 * the code's own (what a file of one's own gets when it leaves the setting out). Checked: the tables of variables with
 * a default column, the rate limits' table, every {@code `section.setting` (value} in the prose, and the ports of
 * every call to localhost the docs show.
 */
class DocumentedDefaultsTest {

    /** The docs whose tables of variables name the bundled file's variables. */
    static final List<String> VARIABLE_TABLES = List.of("docs/operations/configuration.md", "docs/security.md",
            "docs/console.md");

    static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z0-9_]+):-([^}]*)}");
    static final Pattern CODE = Pattern.compile("`([^`]*)`");
    static final Pattern SETTING_VALUE =
            Pattern.compile("`([a-z]+(?:\\.[a-zA-Z]+)+)` \\(?(\\d[\\d,.]*)(?: ?([A-Za-z]+))?");
    static final Pattern LOCALHOST = Pattern.compile("localhost:(\\d+)(/[\\w.:/-]*)?");
    static final Pattern APPLICATION_PATH = Pattern.compile("/(v1|console|openapi\\.json)\\b.*");
    static final Pattern ADMIN_PATH =
            Pattern.compile("/(healthcheck|ready|ping|metrics|prometheus|tasks|threads|pprof)\\b.*");

    static final ObjectMapper JSON = Jackson.newObjectMapper();

    /** Each variable of the bundled file: its default there, and the setting it is read into (null: a map's key). */
    record Variable(String name, String bundledDefault, String path) {
    }

    @Test
    void everyDefaultOfATableOfVariablesIsTheBundledFilesAndTheCodes() throws IOException {
        var variables = bundledVariables();
        var code = codeDefaults();
        var wrong = new ArrayList<String>();
        int checked = 0;
        for (String doc : VARIABLE_TABLES) {
            var file = Markdown.read(PROJECT.resolve(doc));
            boolean inTable = false;
            for (int i = 0; i < file.lines().size(); i++) {
                String line = file.lines().get(i);
                if (!line.startsWith("|")) {
                    inTable = false;
                    continue;
                }
                var cells = Arrays.stream(line.split("\\|")).skip(1).map(String::strip).toList();
                if (cells.size() >= 2 && cells.get(0).equals("variable") && cells.get(1).equals("default")) {
                    inTable = true;
                    continue;
                }
                if (!inTable || cells.get(0).startsWith("---")) {
                    continue;
                }
                String where = doc + ":" + (i + 1) + ": ";
                var names = names(cells.get(0));
                var values = values(cells.get(1));
                if (values.size() != names.size() && values.size() != 1) {
                    wrong.add(where + names.size() + " names but " + values.size() + " defaults");
                    continue;
                }
                for (int n = 0; n < names.size(); n++) {
                    String value = values.get(values.size() == 1 ? 0 : n);
                    var matching = matching(names.get(n), variables);
                    if (matching.isEmpty()) {
                        wrong.add(where + names.get(n) + " is no variable of the bundled file");
                    }
                    for (var variable : matching) {
                        checked++;
                        if (value != null) {
                            compare(where + variable.name(), value, variable, code, wrong);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("variables checked").isGreaterThan(40);
        assertThat(wrong).as("defaults the docs give wrongly").isEmpty();
    }

    /**
     * The table of security.md's "Rate limits", where the defaults are stated: a row per role (a role under
     * {@code limits.otherRoles} has the {@code OTHER} limits), a column per kind of request, each cell its rate and
     * burst.
     */
    @Test
    void everyRateLimitOfTheTableIsTheDefault() throws IOException {
        var variables = bundledVariables();
        var code = codeDefaults();
        var file = Markdown.read(PROJECT.resolve("docs/security.md"));
        var wrong = new ArrayList<String>();
        List<String> kinds = null;
        int checked = 0;
        for (int i = 0; i < file.lines().size(); i++) {
            String line = file.lines().get(i).strip();
            var cells = Arrays.stream(line.split("\\|")).skip(1).map(String::strip).toList();
            boolean rateHeader = line.startsWith("|") && cells.get(0).equals("role")
                    && cells.stream().skip(1).allMatch(cell -> cell.endsWith(": rate /s, burst"));
            if (rateHeader) {
                // "reads: rate /s, burst" names the variables READS_RATE and READS_BURST
                kinds = cells.stream().skip(1).map(cell -> cell.substring(0, cell.indexOf(':')).toUpperCase()).toList();
            } else if (!line.startsWith("|") || cells.get(0).equals("role")) {
                kinds = null;
            } else if (kinds != null && !cells.get(0).startsWith("---")) {
                for (String role : codeSpans(cells.get(0))) {
                    if (!role.matches("[a-z]+")) {
                        continue; // the setting a role is listed under, not a role
                    }
                    String group = List.of("platform", "operator", "admin").contains(role) ? role.toUpperCase() : "OTHER";
                    for (int column = 0; column < kinds.size(); column++) {
                        var values = cells.get(column + 1).split(", ");
                        var names = List.of("RATE", "BURST");
                        for (int v = 0; v < names.size(); v++) {
                            String name = "PROFILE_STORE_LIMITS_" + group + "_" + kinds.get(column) + "_" + names.get(v);
                            var variable = variables.get(name);
                            checked++;
                            if (variable == null) {
                                wrong.add(name + " is no variable of the bundled file");
                            } else {
                                compare("security.md:" + (i + 1) + ": " + name, values[v].replace(",", ""), variable,
                                        code, wrong);
                            }
                        }
                    }
                }
            }
        }
        assertThat(checked).as("rate limits checked").isEqualTo(24);
        assertThat(wrong).as("rate limits the docs give wrongly").isEmpty();
    }

    /** Prose such as "`search.cursorTtl` (2 min)" or "`profiles.maxDocumentBytes` 64 KiB", in every doc. */
    @Test
    void everySettingTheProseGivesAValueHasItAsItsDefault() throws IOException {
        var code = codeDefaults();
        var wrong = new ArrayList<String>();
        int checked = 0;
        for (var file : documentation()) {
            for (int i = 0; i < file.lines().size(); i++) {
                if (file.inCode().get(i)) {
                    continue;
                }
                Matcher setting = SETTING_VALUE.matcher(file.lines().get(i));
                while (setting.find()) {
                    checked++;
                    JsonNode node = at(code, setting.group(1));
                    String number = setting.group(2).replaceAll("[,.]$", "");
                    String unit = setting.group(3) == null ? "" : " " + setting.group(3);
                    if (node.isMissingNode()) {
                        wrong.add(file.name() + ":" + (i + 1) + ": " + setting.group(1) + " is no setting");
                    } else if (!same(number + unit, node) && !same(number, node)) {
                        wrong.add(file.name() + ":" + (i + 1) + ": " + setting.group(1) + " is " + number + unit
                                + " in the docs, " + text(node) + " in the code");
                    }
                }
            }
        }
        assertThat(checked).as("settings checked").isGreaterThan(20);
        assertThat(wrong).as("settings the docs give wrongly").isEmpty();
    }

    /** The calls the docs show reach the API's port or the admin port, as the service has them by default. */
    @Test
    void everyCallToLocalhostUsesTheDefaultPorts() throws IOException {
        var wrong = new ArrayList<String>();
        int checked = 0;
        for (var file : documentation()) {
            for (int i = 0; i < file.lines().size(); i++) {
                Matcher call = LOCALHOST.matcher(file.lines().get(i));
                while (call.find()) {
                    String path = call.group(2) == null ? "" : call.group(2);
                    int port = Integer.parseInt(call.group(1));
                    int expected = APPLICATION_PATH.matcher(path).matches() ? ProfileStoreServerFactory.APPLICATION_PORT
                            : ADMIN_PATH.matcher(path).matches() ? ProfileStoreServerFactory.ADMIN_PORT : 0;
                    if (expected != 0) {
                        checked++;
                        if (port != expected) {
                            wrong.add(file.name() + ":" + (i + 1) + ": localhost:" + port + path + " is not on "
                                    + expected);
                        }
                    }
                }
            }
        }
        assertThat(checked).as("calls checked").isGreaterThan(30);
        assertThat(wrong).as("calls to ports the service does not have by default").isEmpty();
    }

    /** The README and docs/. */
    static List<Markdown> documentation() throws IOException {
        return DocsTest.markdownFiles().stream()
                .filter(f -> f.name().equals("README.md") || f.name().startsWith("docs/")).toList();
    }

    /**
     * The variables of a table's first cell: full names, or a shorthand for the one before with its last words
     * changed ({@code _PASSWORD}, {@code …_JWKS_FILE}), or a pattern ({@code <SERVICE>_TLS_ENABLED},
     * {@code PROFILE_STORE_JWT_*}).
     */
    static List<String> names(String cell) {
        var names = new ArrayList<String>();
        for (String span : codeSpans(cell)) {
            String name = span.replace("…", "");
            if (name.startsWith("_") && !names.isEmpty()) {
                String before = names.get(names.size() - 1);
                var candidates = new ArrayList<String>();
                for (int cut = before.lastIndexOf('_'); cut > 0; cut = before.lastIndexOf('_', cut - 1)) {
                    candidates.add(before.substring(0, cut) + name);
                }
                name = candidates.stream().filter(c -> bundledText().contains("${" + c + ":-")).findFirst()
                        .orElse(candidates.isEmpty() ? name : candidates.get(0));
            }
            names.add(name);
        }
        return names;
    }

    /** The defaults of a cell: a code span is a value, "none", "empty" or other words no value, a link not checked. */
    static List<String> values(String cell) {
        var values = new ArrayList<String>();
        for (String item : cell.split(",\\s*(?=(?:[^`]*`[^`]*`)*[^`]*$)")) {
            Matcher code = CODE.matcher(item.strip());
            values.add(code.matches() ? code.group(1) : item.contains("](") ? null : "");
        }
        return values;
    }

    static List<String> codeSpans(String cell) {
        var spans = new ArrayList<String>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            spans.add(code.group(1));
        }
        return spans;
    }

    static List<Variable> matching(String name, Map<String, Variable> variables) {
        var pattern = Pattern.compile(Pattern.quote(name).replaceAll("<[A-Z]+>", "\\\\E[A-Z]+\\\\Q")
                .replace("*", "\\E[A-Z_]+\\Q"));
        return variables.values().stream().filter(v -> pattern.matcher(v.name()).matches()).toList();
    }

    /** The documented value against the bundled file's default and the code's, where the variable is a setting. */
    static void compare(String where, String documented, Variable variable, JsonNode code, List<String> wrong) {
        if (!documented.equals(variable.bundledDefault())) {
            wrong.add(where + ": `" + documented + "` in the docs, `" + variable.bundledDefault()
                    + "` in the bundled file");
        }
        if (variable.path() != null) {
            JsonNode node = at(code, variable.path());
            if (node.isMissingNode() || !same(documented, node)) {
                wrong.add(where + ": `" + documented + "` in the docs, " + text(node) + " in the code ("
                        + variable.path() + ")");
            }
        }
    }

    static boolean same(String documented, JsonNode code) {
        String text = text(code);
        if (documented.equals(text)) {
            return true;
        }
        if (documented.isEmpty() || text.isEmpty()) {
            return false;
        }
        try {
            return Duration.parse(documented).toNanoseconds() == Duration.parse(text).toNanoseconds();
        } catch (IllegalArgumentException notADuration) {
            // a number or a size
        }
        try {
            return new BigDecimal(documented.replace(",", "")).compareTo(new BigDecimal(text)) == 0;
        } catch (NumberFormatException notANumber) {
            // a size
        }
        try {
            long bytes = code.isNumber() ? code.asLong() : DataSize.parse(text).toBytes();
            return DataSize.parse(documented).toBytes() == bytes;
        } catch (IllegalArgumentException notASize) {
            return false;
        }
    }

    /** A value as text; none, an empty text and an empty list alike. */
    static String text(JsonNode node) {
        if (node.isNull() || node.isMissingNode() || (node.isArray() && node.isEmpty())) {
            return "";
        }
        if (node.isArray()) {
            // a list, as its variable takes it: comma-separated
            var items = new ArrayList<String>();
            node.forEach(item -> items.add(item.asText()));
            return String.join(",", items);
        }
        return node.isValueNode() ? node.asText() : node.toString();
    }

    static JsonNode at(JsonNode root, String path) {
        JsonNode node = root;
        for (String step : path.split("\\.")) {
            node = step.matches("\\d+") && node.isArray() ? node.path(Integer.parseInt(step)) : node.path(step);
        }
        return node;
    }

    /**
     * The defaults of a file of one's own: the configuration's fields as the code initialises them. The JWT block
     * exists only when a file names a key set, so its defaults are those of a new one.
     */
    static JsonNode codeDefaults() {
        ObjectNode tree = JSON.valueToTree(new ProfileStoreConfiguration());
        ((ObjectNode) tree.path("auth")).set("jwt", JSON.valueToTree(new JwtSettings()));
        return tree;
    }

    static String bundledText() {
        try {
            return Files.readString(PROJECT.resolve("src/main/resources/profile-store.yml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every ${NAME:-default} of the bundled file, with the setting it sits in, by name. */
    static Map<String, Variable> bundledVariables() throws IOException {
        String text = bundledText();
        var variables = new LinkedHashMap<String, Variable>();
        Matcher variable = VARIABLE.matcher(text);
        while (variable.find()) {
            variables.putIfAbsent(variable.group(1), new Variable(variable.group(1), variable.group(2), null));
        }
        // each ${...} by a word YAML reads as is, to find where it sits
        JsonNode tree = new ObjectMapper(new YAMLFactory()).readTree(VARIABLE.matcher(text).replaceAll("VAR_$1_VAR"));
        var paths = new LinkedHashMap<String, String>();
        locate("", tree, paths);
        variables.replaceAll((name, v) -> new Variable(name, v.bundledDefault(), paths.get(name)));
        return variables;
    }

    private static void locate(String path, JsonNode node, Map<String, String> paths) {
        if (node.isContainerNode()) {
            var names = new ArrayList<String>();
            node.fieldNames().forEachRemaining(names::add);
            if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    locate(path + "." + i, node.get(i), paths);
                }
            }
            for (String name : names) {
                if (!name.contains("VAR_")) { // a variable as a map's key (the data center's name) is no setting
                    locate(path.isEmpty() ? name : path + "." + name, node.get(name), paths);
                }
            }
        } else {
            Matcher word = Pattern.compile("^VAR_([A-Z0-9_]+)_VAR$").matcher(node.asText());
            if (word.matches()) {
                paths.putIfAbsent(word.group(1), path.startsWith(".") ? path.substring(1) : path);
            }
        }
    }
}
