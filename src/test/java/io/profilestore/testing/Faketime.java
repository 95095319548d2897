package io.profilestore.testing;

import io.profilestore.stack.Packages;
import io.profilestore.stack.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * libfaketime, which moves the clock of a process: preloaded into the JVM itself (not through the
 * {@code faketime} wrapper, which would stand between us and the JVM's pid). Installed when missing, as root.
 */
final class Faketime {

    private static final List<Path> LIBRARIES = Prerequisites.FAKETIME_LIBRARIES;

    private Faketime() {
    }

    /** The environment that runs a process with its clock moved by the offset, e.g. {@code +30s}. */
    static synchronized Map<String, String> environment(String offset) {
        var library = LIBRARIES.stream().filter(Files::isRegularFile).findFirst().orElseGet(() -> {
            Packages.install("libfaketime", "libfaketime");
            return LIBRARIES.stream().filter(Files::isRegularFile).findFirst()
                    .orElseThrow(() -> new IllegalStateException("libfaketime is installed but libfaketime.so.1 was not found"));
        });
        return Map.of("LD_PRELOAD", library.toString(), "FAKETIME", offset);
    }
}
