package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

        String message = StartFailure.message(node);

        assertThat(message).startsWith("elasticsearch exited during start-up").contains(launcherLog.toString());
        assertThat(message).as("no file that was never written is named").doesNotContain(node.log().toString());
        assertThat(message).as("its last words, which outlive a stack folder CI deletes")
                .contains("could not create the data folder: Permission denied");
    }

    /** A log that holds a byte no UTF-8 reader accepts (a node's binary dump, say) is still quoted. */
    @Test
    void aLogWithBytesThatAreNoTextIsQuotedAllTheSame() throws IOException {
        var node = new ElasticsearchNode(StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stack.toString())));
        Path launcherLog = stack.resolve("elasticsearch/logs/launcher.log");
        Files.createDirectories(launcherLog.getParent());
        Files.write(launcherLog, new byte[] {'b', 'a', 'd', ' ', (byte) 0xC3, (byte) 0x28, '\n'});
        Files.writeString(launcherLog, "fatal: the port is taken\n", java.nio.file.StandardOpenOption.APPEND);

        assertThat(StartFailure.message(node)).contains("fatal: the port is taken").doesNotContain("unreadable");
    }

    /** The message is made when the service is seen to have failed, not when the wait for it began. */
    @Test
    void aServiceIsReportedWithTheLogItWroteWhileItFailed() {
        Path written = stack.resolve("node.log");
        var service = new LocalService() {
            @Override
            public String name() {
                return "fake";
            }

            @Override
            public List<Long> runningPids() {
                return List.of();
            }

            @Override
            public void launch() {
            }

            @Override
            public boolean ready() {
                try {
                    Files.writeString(written, "fatal: cannot start\n"); // written after the wait began
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return false;
            }

            @Override
            public boolean failed() {
                return Files.exists(written);
            }

            @Override
            public void stop() {
            }

            @Override
            public Path log() {
                return written;
            }
        };

        assertThatThrownBy(() -> LocalStack.awaitReady(service, Duration.ofSeconds(30)))
                .hasMessageContaining("fake exited during start-up; see " + written);
    }

    @Test
    void aServiceThatWroteNoLogAtAllSaysSoNamingWhereItWouldHaveWritten() {
        var node = new ElasticsearchNode(StackSettings.from(Map.of("PROFILE_STORE_STACK_DIR", stack.toString())));

        String message = StartFailure.message(node);

        assertThat(message).contains("wrote no log")
                .contains(stack.resolve("elasticsearch/logs/launcher.log").toString());
    }
}
