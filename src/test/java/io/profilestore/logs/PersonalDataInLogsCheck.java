package io.profilestore.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Runs after every other test (its own surefire execution, in the verify phase): the logs of the whole run, the
 * service's and the separate instances', hold none of the names, phones, document numbers or e-mails the tests
 * sent.
 */
class PersonalDataInLogsCheck {

    static final Path TARGET = Path.of(System.getProperty("profileStore.projectDir", "."), "target");

    @Test
    void noPersonalDataSentByTheTestsAppearsInAnyLog() throws IOException {
        var sent = Files.readAllLines(TARGET.resolve("personal-data-sent.txt"));
        assertThat(sent).as("the tests sent personal data to look for").hasSizeGreaterThan(50);
        var logs = new ArrayList<Path>();
        try (Stream<Path> reports = Files.list(TARGET.resolve("surefire-reports"))) {
            reports.filter(p -> p.getFileName().toString().endsWith("-output.txt"))
                    .filter(p -> !p.getFileName().toString().contains(PersonalDataInLogsCheck.class.getSimpleName()))
                    .forEach(logs::add);
        }
        if (Files.isDirectory(TARGET.resolve("instance-logs"))) {
            try (Stream<Path> instances = Files.list(TARGET.resolve("instance-logs"))) {
                instances.forEach(logs::add);
            }
        }
        assertThat(logs).as("logs of the test run").isNotEmpty();

        var leaks = new ArrayList<String>();
        long bytes = 0;
        for (Path log : logs) {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            bytes += text.length();
            for (String value : sent) {
                int at = text.indexOf(value);
                if (at >= 0) {
                    int lineStart = text.lastIndexOf('\n', at) + 1;
                    int lineEnd = text.indexOf('\n', at);
                    leaks.add(log.getFileName() + ": '" + value + "' in: "
                            + text.substring(lineStart, lineEnd < 0 ? text.length() : Math.min(lineEnd, lineStart + 300)));
                }
            }
        }
        System.out.printf("scanned %d logs (%,d characters) for %d values the tests sent%n", logs.size(), bytes, sent.size());
        assertThat(leaks).as("personal data in logs").isEmpty();
    }

}
