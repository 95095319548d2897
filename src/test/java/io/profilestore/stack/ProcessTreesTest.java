package io.profilestore.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pause of a service signals every process of its tree, and a tree changes while it is listed: RabbitMQ's
 * short-lived helpers (inet_gethost) end between the listing and the signal. kill(1) then exits 1 although it froze
 * every process still there; taking that for a failure left RabbitMQ frozen with nobody to resume it, and every later
 * test class of a CI run failed on "cannot reach RabbitMQ".
 */
class ProcessTreesTest {

    private Process sleeper;

    @AfterEach
    void endTheSleeper() {
        if (sleeper != null) {
            ProcessTrees.signal("CONT", List.of(sleeper.pid()));
            sleeper.destroyForcibly();
        }
    }

    @Test
    void aProcessThatEndedBeforeTheSignalDoesNotFailTheSignalOfTheOthers() throws Exception {
        var ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(10, TimeUnit.SECONDS)).isTrue();
        sleeper = new ProcessBuilder("sleep", "60").start();

        ProcessTrees.signal("STOP", List.of(ended.pid(), sleeper.pid()));

        assertThat(state(sleeper.pid())).as("the process still there is frozen").isEqualTo('T');
        ProcessTrees.signal("CONT", List.of(sleeper.pid()));
        assertThat(state(sleeper.pid())).as("and goes on when resumed").isNotEqualTo('T');
    }

    /** The state letter in /proc/PID/stat: T when stopped by a signal. */
    private static char state(long pid) throws IOException {
        var stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }
}
