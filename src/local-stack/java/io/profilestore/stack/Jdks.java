package io.profilestore.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds a JDK of a wanted major version on this machine: Cassandra 5.0 runs on 17 (not on 24+, where the
 * SecurityManager is gone), Elasticsearch 9 needs 21 or newer. Looks at a variable of our own first, then the
 * running JVM, JAVA_HOME and /usr/lib/jvm.
 */
final class Jdks {

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)(?:\\.\\d+)*[^\"]*\"", Pattern.MULTILINE);

    record Jdk(Path home, int major) {
        Path java() {
            return home.resolve("bin/java");
        }
    }

    private Jdks() {
    }

    /** Cassandra 5.0 runs on 17 up to 23: the SecurityManager it relies on is gone from 24. */
    static Jdk forCassandra(StackSettings settings) {
        return find("Cassandra " + Binaries.CASSANDRA_VERSION, "CASSANDRA_JAVA_HOME",
                settings.lookup().apply("CASSANDRA_JAVA_HOME"), 17, 23);
    }

    /** Elasticsearch 9 needs 21 or newer (the integ-test distribution brings no JDK of its own). */
    static Jdk forElasticsearch(StackSettings settings) {
        return find("Elasticsearch " + Binaries.ELASTICSEARCH_VERSION, "ES_JAVA_HOME",
                settings.lookup().apply("ES_JAVA_HOME"), 21, Integer.MAX_VALUE);
    }

    static Jdk find(String purpose, String variable, String explicit, int minMajor, int maxMajor) {
        if (explicit != null && !explicit.isBlank()) {
            var jdk = describe(Path.of(explicit));
            if (jdk.isEmpty() || jdk.get().major() < minMajor || jdk.get().major() > maxMajor) {
                throw new IllegalStateException(variable + "=" + explicit + " is not a JDK " + range(minMajor, maxMajor));
            }
            return jdk.get();
        }
        return candidates().stream()
                .map(Jdks::describe)
                .flatMap(Optional::stream)
                .filter(jdk -> jdk.major() >= minMajor && jdk.major() <= maxMajor)
                .min(Comparator.comparingInt(Jdk::major))
                .orElseThrow(() -> new IllegalStateException(purpose + " needs a JDK " + range(minMajor, maxMajor)
                        + " and none was found in JAVA_HOME, the running JVM or /usr/lib/jvm. Install one "
                        + "(for example Temurin " + minMajor + ") and point " + variable + " at it."));
    }

    private static String range(int min, int max) {
        return max >= 1000 ? min + " or newer" : "between " + min + " and " + max;
    }

    private static Set<Path> candidates() {
        Set<Path> homes = new LinkedHashSet<>();
        homes.add(Path.of(System.getProperty("java.home")));
        Optional.ofNullable(System.getenv("JAVA_HOME")).map(Path::of).ifPresent(homes::add);
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> entries = Files.list(jvms)) {
                entries.sorted().forEach(homes::add);
            } catch (IOException ignored) {
                // nothing more to look at
            }
        }
        List<Path> real = new ArrayList<>();
        for (Path home : homes) {
            try {
                Path resolved = home.toRealPath();
                if (!real.contains(resolved)) {
                    real.add(resolved);
                }
            } catch (IOException ignored) {
                // a dangling link
            }
        }
        return new LinkedHashSet<>(real);
    }

    static Optional<Jdk> describe(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin/java"))) {
            return Optional.empty();
        }
        try {
            var matcher = VERSION.matcher(Files.readString(release));
            if (!matcher.find()) {
                return Optional.empty();
            }
            int major = Integer.parseInt(matcher.group(1));
            return Optional.of(new Jdk(home, major == 1 ? 8 : major));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
