package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service that exits during start-up is reported with the file that holds its own words about it. Elasticsearch's
 * launcher writes to launcher.log first; the node's log comes only once the node runs, so a node that never ran
 * (its folder unreadable, say) leaves the cause in launcher.log alone.
 */
class StartFailureMessageTest {

    @TempDir
    Path stack;

    @Test
    void elasticsearchThatNeverRanIsReportedWithItsLaunchersLog() throws IOException {
        var node = new ElasticsearchNode(StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stack.toString())));
        Path launcherLog = stack.resolve("elasticsearch/logs/launcher.log");
        Files.createDirectories(launcherLog.getParent());
        Files.writeString(launcherLog, "could not create the data folder: Permission denied\n");

        String message = LocalStack.exitedDuringStartUp(node);

        assertThat(message).startsWith("elasticsearch exited during start-up").contains(launcherLog.toString());
        assertThat(message).as("no file that was never written is named").doesNotContain(node.log().toString());
    }

    @Test
    void aServiceThatWroteNoLogAtAllSaysSoNamingWhereItWouldHaveWritten() {
        var node = new ElasticsearchNode(StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stack.toString())));

        String message = LocalStack.exitedDuringStartUp(node);

        assertThat(message).contains("wrote no log")
                .contains(stack.resolve("elasticsearch/logs/launcher.log").toString());
    }
}
