package io.profilestore.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The spellings a romanization test missed, each with the name it should have found: written to a file under
 * {@code target}, never to the test's output, which the scan for personal data in logs reads.
 */
public final class RomanizationMisses {

    private RomanizationMisses() {
    }

    /** Writes the misses and says, without naming anyone, how many there were and where they are. */
    public static String write(String fileName, List<String> misses) {
        Path file = Path.of(System.getProperty("profileStore.projectDir", "."), "target", fileName);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, misses, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return misses.size() + " spelling(s) missed, each with its name: " + file;
    }
}
