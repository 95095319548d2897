package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stack's Elasticsearch is found by its pid file, and the process under that pid by what its command line says of
 * the stack's own folder. The benchmark's stack shares the developer stack's distributions
 * ({@code PROFILE_STORE_STACK_DIST_DIR}); stopped as bench/README says, with its stack folder alone, it was not
 * recognised by the distribution's folder, and its Elasticsearch was left running.
 */
class ElasticsearchNodeTest {

    private final List<Process> standIns = new ArrayList<>();

    @AfterEach
    void endTheStandIns() {
        standIns.forEach(Process::destroyForcibly);
    }

    /** A process whose command line is the node's as the launcher starts it: its distribution, its temporary folder. */
    private long standIn(String distribution, Path stackDir) throws Exception {
        var process = new ProcessBuilder("sh", "-c", "sleep 60", "-Des.path.home=" + distribution,
                "-Djava.io.tmpdir=" + stackDir.resolve("elasticsearch/tmp")).start();
        standIns.add(process);
        return process.pid();
    }

    private static void pidFile(Path stackDir, long pid) throws Exception {
        Files.createDirectories(stackDir.resolve("elasticsearch"));
        Files.writeString(stackDir.resolve("elasticsearch/elasticsearch.pid"), Long.toString(pid));
    }

    @Test
    void aNodeOfTheStackIsFoundWhicheverDistributionFolderItRunsFrom(@TempDir Path stackDir) throws Exception {
        long pid = standIn("/var/tmp/another-stack/dist/elasticsearch-9.5.3", stackDir);
        pidFile(stackDir, pid);

        var settings = StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stackDir.toString()));

        assertThat(new ElasticsearchNode(settings).runningPids()).containsExactly(pid);
    }

    @Test
    void aProcessOfAnotherStackUnderThePidOfThePidFileIsNotOurs(@TempDir Path stackDir, @TempDir Path other)
            throws Exception {
        var settings = StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stackDir.toString()));
        long pid = standIn(settings.dir().resolve("dist/elasticsearch-9.5.3").toString(), other);
        pidFile(stackDir, pid);

        assertThat(new ElasticsearchNode(settings).runningPids()).isEmpty();
    }
}
