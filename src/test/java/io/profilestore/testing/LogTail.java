package io.profilestore.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The last lines of a child process's log, for a failure message that says why it died. */
public final class LogTail {

    private LogTail() {
    }

    public static String of(Path log, int lines) {
        try {
            // lenient: a stray byte must not hide the reason
            List<String> all = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(" + log + " unreadable: " + e.getMessage() + ")";
        }
    }
}
