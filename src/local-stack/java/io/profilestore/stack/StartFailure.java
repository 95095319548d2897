package io.profilestore.stack;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** What the stack says of a service that exited while it started. */
final class StartFailure {

    /** How much of a log's end is read: enough for its last lines, never a whole multi-megabyte log. */
    private static final int TAIL_BYTES = 64 * 1024;

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

    /** The end of a log, however large, and whatever bytes it holds (a bad one reads as a replacement character). */
    private static String lastLines(Path log, int count) {
        try (var file = new RandomAccessFile(log.toFile(), "r")) {
            long from = Math.max(0, file.length() - TAIL_BYTES);
            var bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            var lines = new String(bytes, StandardCharsets.UTF_8).lines()
                    .map(line -> line.length() > 400 ? line.substring(0, 400) + " ..." : line).toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
