package io.profilestore.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.stack.StackMode;
import io.profilestore.stack.StackSettings;
import io.profilestore.testing.ForkedStacks;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/**
 * Runs after every other test (its own Failsafe execution, in post-integration-test): the logs of the whole run, the
 * service's, the separate instances' and commands', and the backing services' own (Cassandra, Elasticsearch,
 * PostgreSQL, RabbitMQ, under the stack folder), hold none of the names, phones, document numbers or e-mails the
 * tests sent. Values are matched as whole words, case aside, so that short names (Анна, Вера) count without
 * hitting inside other words.
 */
class PersonalDataInLogsCheck {

    static final Path TARGET = Path.of(System.getProperty("profileStore.projectDir", "."), "target");

    /** The backing services' log folders and files under the stack folder, as the local stack writes them. */
    static final List<String> SERVICE_LOGS = List.of("cassandra/*/logs", "elasticsearch/logs", "postgres/postgres.log",
            "rabbitmq/log", "rabbitmq/stdout.log");

    @Test
    void noPersonalDataSentByTheTestsAppearsInAnyLog() throws IOException {
        var sent = new ArrayList<String>();
        try (Stream<Path> files = Files.list(TARGET)) {
            // this run's forks only: a file an earlier run with more forks left is no proof of this one
            for (var file : files.filter(f -> f.getFileName().toString().matches("personal-data-sent-\\d+\\.txt")).toList()) {
                int fork = Integer.parseInt(file.getFileName().toString().replaceAll("\\D", ""));
                if (fork <= ForkedStacks.forks()) {
                    sent.addAll(Files.readAllLines(file, StandardCharsets.UTF_8));
                }
            }
        }
        assertThat(sent).as("the tests sent personal data to look for").hasSizeGreaterThan(50);
        var values = new Values(sent);

        var logs = new ArrayList<Path>();
        // the integration tests' output (Failsafe), and the unit tests' (Surefire) when `mvn verify` ran them too
        for (var folder : List.of("failsafe-reports", "surefire-reports")) {
            if (!Files.isDirectory(TARGET.resolve(folder))) {
                continue;
            }
            try (Stream<Path> reports = Files.list(TARGET.resolve(folder))) {
                reports.filter(p -> p.getFileName().toString().endsWith("-output.txt"))
                        .filter(p -> !p.getFileName().toString()
                                .contains(PersonalDataInLogsCheck.class.getSimpleName()))
                        .forEach(logs::add);
            }
        }
        if (Files.isDirectory(TARGET.resolve("instance-logs"))) {
            try (Stream<Path> instances = Files.list(TARGET.resolve("instance-logs"))) {
                instances.forEach(logs::add);
            }
        }
        assertThat(logs).as("logs of the test run").isNotEmpty();
        var settings = StackSettings.fromEnvironment();
        if (settings.mode() == StackMode.LOCAL) {
            // each fork of the integration tests ran a stack of its own (ForkedStacks): every one's logs
            for (int fork = 1; fork <= ForkedStacks.forks(); fork++) {
                var dir = fork == 1 ? settings.dir() : Path.of(settings.dir() + "-fork" + fork);
                if (fork > 1 && !Files.isDirectory(dir)) {
                    continue; // a fork that ran no test of the stack
                }
                var services = serviceLogs(dir);
                services.forEach((service, files) -> assertThat(files).as("logs of %s under %s", service, dir)
                        .isNotEmpty());
                services.values().forEach(logs::addAll);
            }
        } else {
            System.out.printf("the backing services run in %s mode: their logs are not on this machine's disk%n",
                    settings.mode().name().toLowerCase(Locale.ROOT));
        }

        var leaks = new ArrayList<String>();
        long characters = 0;
        for (Path log : logs) {
            try (var lines = open(log)) {
                int number = 0;
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    number++;
                    characters += line.length();
                    for (String value : values.in(line)) {
                        leaks.add(log + ":" + number + ": '" + value + "' in: " + line.substring(0, Math.min(line.length(), 300)));
                    }
                }
            }
        }
        System.out.printf("scanned %d logs (%,d characters) for %d values the tests sent%n", logs.size(), characters,
                values.size());
        assertThat(leaks.subList(0, Math.min(leaks.size(), 100)))
                .as("personal data in logs (%d found; at most 100 shown)", leaks.size()).isEmpty();
    }

    /** Each backing service's log files (rolled and compressed ones too), by the folder or file they are under. */
    static Map<String, List<Path>> serviceLogs(Path stackDir) throws IOException {
        var logs = new LinkedHashMap<String, List<Path>>();
        for (String place : SERVICE_LOGS) {
            var files = new ArrayList<Path>();
            for (Path root : expand(stackDir, place)) {
                if (Files.isDirectory(root)) {
                    try (Stream<Path> tree = Files.walk(root)) {
                        tree.filter(Files::isRegularFile).forEach(files::add);
                    }
                } else if (Files.isRegularFile(root)) {
                    files.add(root);
                }
            }
            logs.put(place, files);
        }
        return logs;
    }

    /** The paths a place names; a {@code *} stands for every folder at that level (Cassandra's nodes). */
    private static List<Path> expand(Path base, String place) throws IOException {
        int star = place.indexOf("/*/");
        if (star < 0) {
            return List.of(base.resolve(place));
        }
        Path parent = base.resolve(place.substring(0, star));
        if (!Files.isDirectory(parent)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(parent)) {
            return children.filter(Files::isDirectory).map(child -> child.resolve(place.substring(star + 3))).toList();
        }
    }

    /** A log as lines; gzip (Elasticsearch's rolled logs) and zip (Cassandra's) are read inside. */
    private static BufferedReader open(Path log) throws IOException {
        String name = log.getFileName().toString();
        InputStream in = Files.newInputStream(log);
        if (name.endsWith(".gz")) {
            in = new GZIPInputStream(in);
        } else if (name.endsWith(".zip")) {
            var zip = new ZipInputStream(in);
            zip.getNextEntry();
            in = zip;
        }
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /**
     * The values to look for, each as its words (runs of letters and digits, in lower case): a value is in a line
     * when its words follow one another there, whatever separates them, and begin and end at word boundaries.
     * {@code Анна} is in "firstName=Анна," but not in "Аннабель"; {@code +7 (912) 345-67-89} is in "7 912 345 67 89"
     * as well as in its own formatting.
     */
    static final class Values {
        private final Map<String, List<Value>> byFirstWord = new HashMap<>();
        private int size;

        private record Value(String text, List<String> words) {
        }

        Values(List<String> sent) {
            for (String text : sent) {
                var words = words(text);
                if (!words.isEmpty()) {
                    byFirstWord.computeIfAbsent(words.get(0), w -> new ArrayList<>()).add(new Value(text, words));
                    size++;
                }
            }
        }

        int size() {
            return size;
        }

        /** The values the line holds. */
        List<String> in(String line) {
            var found = new ArrayList<String>();
            var words = words(line);
            for (int i = 0; i < words.size(); i++) {
                var candidates = byFirstWord.get(words.get(i));
                if (candidates == null) {
                    continue;
                }
                for (var value : candidates) {
                    if (i + value.words().size() <= words.size()
                            && words.subList(i, i + value.words().size()).equals(value.words())) {
                        found.add(value.text());
                    }
                }
            }
            return found;
        }

        static List<String> words(String text) {
            var words = new ArrayList<String>();
            var word = new StringBuilder();
            text.codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c)) {
                    word.appendCodePoint(Character.toLowerCase(c));
                } else if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            });
            if (!word.isEmpty()) {
                words.add(word.toString());
            }
            return words;
        }
    }
}
