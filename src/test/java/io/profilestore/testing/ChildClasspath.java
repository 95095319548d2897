package io.profilestore.testing;

import java.io.File;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * This JVM's classpath for a child JVM. Surefire ends {@code java.class.path} with a separator, and an empty entry
 * means the working directory: the repository root, whose {@code cql/} folder the schema migration would then find
 * beside the copy in {@code target/classes} ("two different files for version 1").
 */
public final class ChildClasspath {

    private ChildClasspath() {
    }

    public static String current() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.isBlank())
                .collect(Collectors.joining(File.pathSeparator));
    }
}
