package io.profilestore.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A Cassandra schema change waits for the node to write its schema tables to disk and tell the others, which on a
 * busy machine outlasts the driver's request timeout (2 s in the tests' configuration). CI failed so:
 * IdempotentWriterIT's CREATE TABLE "timed out after PT2S" while another fork loaded the disk. So the tests make
 * schema changes through {@link TestStack#changeSchema}, which allows them the time a schema change takes, and never
 * pass one straight to a session's {@code execute}.
 */
class SchemaChangesInTestsTest {

    static final Path TESTS = Path.of(System.getProperty("profileStore.projectDir", ".")).resolve("src/test/java");
    static final Pattern DIRECT_SCHEMA_CHANGE =
            Pattern.compile("(session|cassandra\\(\\))\\.execute\\(\\s*\"(CREATE|DROP|ALTER) (KEYSPACE|TABLE|TYPE|INDEX)");
    static final Pattern ANY_SCHEMA_CHANGE = Pattern.compile("\"(CREATE|DROP|ALTER) (KEYSPACE|TABLE) ");

    @Test
    void testsChangeCassandrasSchemaOnlyWithTheTimeASchemaChangeTakes() throws IOException {
        var direct = new ArrayList<String>();
        int schemaChanges = 0;
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                schemaChanges += (int) ANY_SCHEMA_CHANGE.matcher(source).results().count();
                DIRECT_SCHEMA_CHANGE.matcher(source).results()
                        .forEach(m -> direct.add(TESTS.relativize(file) + ": " + m.group()));
            }
        }

        assertThat(schemaChanges).as("schema changes the scan saw in the tests").isGreaterThan(5);
        assertThat(direct).as("schema changes passed straight to a session, with its 2 s timeout").isEmpty();
    }
}
