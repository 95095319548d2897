package io.profilestore.stack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cassandra's jars and the Elasticsearch distribution, fetched from Maven Central by
 * {@code src/local-stack/binaries/pom.xml} into {@code <stack dir>/dist} (or PROFILE_STORE_STACK_DIST_DIR) the first time
 * they are needed.
 */
final class Binaries {

    static final String CASSANDRA_VERSION = "5.0.6";
    static final String ELASTICSEARCH_VERSION = "9.5.3";

    private static final Logger LOG = LoggerFactory.getLogger(Binaries.class);

    private Binaries() {
    }

    static Path cassandraLib(StackSettings settings) {
        return settings.distDir().resolve("cassandra-" + CASSANDRA_VERSION + "/lib");
    }

    static Path elasticsearchHome(StackSettings settings) {
        return settings.distDir().resolve("elasticsearch-" + ELASTICSEARCH_VERSION);
    }

    static void ensure(StackSettings settings) {
        ensure(settings, LOG::info);
    }

    /**
     * Fetches what is missing, telling {@code say}; a marker file tells a complete fetch from one a killed run left
     * half done.
     */
    static synchronized void ensure(StackSettings settings, Consumer<String> say) {
        Path marker = settings.distDir().resolve(".complete-cassandra-" + CASSANDRA_VERSION + "-elasticsearch-"
                + ELASTICSEARCH_VERSION);
        if (Files.exists(marker)) {
            return;
        }
        Path pom = settings.projectDir().resolve("src/local-stack/binaries/pom.xml");
        if (!Files.isRegularFile(pom)) {
            throw new IllegalStateException("cannot fetch Cassandra and Elasticsearch: " + pom + " is missing "
                    + "(run from the repository, or set profileStore.projectDir)");
        }
        say.accept("fetching Cassandra " + CASSANDRA_VERSION + " and Elasticsearch " + ELASTICSEARCH_VERSION
                + " from Maven Central into " + settings.distDir() + " (once, about 220 MB) ...");
        Processes.run(Duration.ofMinutes(20), List.of(maven(), "-B", "-q", "-f", pom.toString(),
                "-Ddist.dir=" + settings.distDir(), "package").toArray(String[]::new));
        try {
            Files.writeString(marker, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String maven() {
        for (String home : new String[] {System.getProperty("maven.home"), System.getenv("MAVEN_HOME")}) {
            if (home != null && Files.isExecutable(Path.of(home, "bin/mvn"))) {
                return Path.of(home, "bin/mvn").toString();
            }
        }
        return "mvn";
    }
}
