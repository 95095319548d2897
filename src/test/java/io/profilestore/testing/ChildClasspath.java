package io.profilestore.testing;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * This JVM's classpath for a child JVM. Surefire ends {@code java.class.path} with a separator, and an empty entry
 * means the working directory: the repository root, whose {@code cql/} folder the schema migration would then find
 * beside the copy in {@code target/classes} ("two different files for version 1").
 */
public final class ChildClasspath {

    private ChildClasspath() {
    }

    /**
     * The command that starts {@code mainClass} in a child JVM of the tests, on this classpath. The JIT's first tier
     * only: a child lives for seconds to minutes and is never measured, and the second tier's compiling was most of
     * its start's CPU, which the tests running beside it wait for on two cores.
     */
    public static List<String> javaCommand(String mainClass) {
        return new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:TieredStopAtLevel=1", "-cp", current(), mainClass));
    }

    public static String current() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
