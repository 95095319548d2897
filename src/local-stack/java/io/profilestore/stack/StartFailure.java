package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What the stack says of a service that exited while it started. */
final class StartFailure {

    private StartFailure() {
    }

    /** What a start that failed says: the files in which the service said why, or that it wrote none. */
    static String message(LocalService service) {
        var written = service.startLogs().stream().filter(Files::isRegularFile).map(Path::toString).toList();
        if (written.isEmpty()) {
            return service.name() + " exited during start-up and wrote no log (none of "
                    + service.startLogs().stream().map(Path::toString).collect(Collectors.joining(", ")) + ")";
        }
        var message = new StringBuilder(service.name() + " exited during start-up; see " + String.join(" and ", written));
        // the last lines too: the folder goes with a CI run, and the message is all that is left of why
        for (String log : written) {
            message.append("\n--- the end of ").append(log).append(":\n").append(lastLines(Path.of(log), 15));
        }
        return message.toString();
    }

    private static String lastLines(Path log, int count) {
        try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
            var all = lines.map(line -> line.length() > 400 ? line.substring(0, 400) + " ..." : line).toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - count), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
