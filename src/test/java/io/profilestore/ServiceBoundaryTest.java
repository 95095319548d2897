package io.profilestore;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The service's own classes use nothing of the local stack (src/local-stack) nor its provided-scope libraries:
 * those share target/classes and the compile classpath with the service, but are not in its jar, where such a
 * use would fail only at run time.
 */
class ServiceBoundaryTest {

    private static final List<String> NOT_IN_THE_JAR = List.of(
            "io/profilestore/stack/", "io/profilestore/demo/", "org/awaitility/", "org/testcontainers/");

    @Test
    void theServiceClassesReferToNothingLeftOutOfTheJar() throws Exception {
        Path classes = Path.of(ProfileStoreApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        var service = new ArrayList<Path>();
        var stack = new ArrayList<Path>();
        try (Stream<Path> files = Files.walk(classes)) {
            files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                String name = classes.relativize(f).toString();
                (name.startsWith("io/profilestore/stack/") || name.startsWith("io/profilestore/demo/") ? stack : service).add(f);
            });
        }
        assertThat(stack).as("the local stack's classes beside the service's").isNotEmpty();
        assertThat(service).as("the service's classes").hasSizeGreaterThan(100);

        var uses = new ArrayList<String>();
        for (Path file : service) {
            // class names in the constant pool are plain UTF-8 with slashes
            String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
            for (String prefix : NOT_IN_THE_JAR) {
                if (bytes.contains(prefix)) {
                    uses.add(classes.relativize(file) + " uses " + prefix);
                }
            }
        }
        assertThat(uses).isEmpty();
    }
}
