package io.profilestore.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.profilestore.testing.ProgressLines;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Away from a terminal (a Job's log), the import's progress is a plain line now and then, with its rate and time left. */
class ProgressTest {

    @RegisterExtension
    final ProgressLines lines = new ProgressLines();

    @Test
    void inALogEachLineSaysHowFarWithTheRateAndTheTimeLeft() {
        try (var progress = new Progress("import", " records", 1_000, 100, false, Duration.ofMillis(50))) {
            progress.at(400);
            await().atMost(Duration.ofSeconds(10)).until(() -> !lines.list().isEmpty());
        }
        var line = lines.list().get(lines.list().size() - 1).getFormattedMessage();
        assertThat(line).contains("import", "400/1000 records", "records/s").as("the time it ran / the time left")
                .containsPattern("\\(\\d+:\\d\\d:\\d\\d / \\d+:\\d\\d:\\d\\d\\)");
        assertThat(line).as("one plain line: no bar redrawn in place, no colours").doesNotContain("\r", "\n", "\u001b");
    }
}
