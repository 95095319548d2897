package io.profilestore.indexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.profilestore.testing.ProgressLines;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Away from a terminal (a Job's or a CI's log), a reindex says how far it is as import does: a plain line now and then,
 * not a bar redrawn with carriage returns, which a log keeps as one endless line.
 */
class CopyProgressTest {

    @RegisterExtension
    final ProgressLines lines = new ProgressLines();

    @Test
    void inALogEachLineSaysTheSlicesTheProfilesAndTheRate() {
        try (var progress = new CopyProgress("profiles-v2", 10, false, Duration.ofMillis(50))) {
            progress.sliceCopied(11, 1_500);
            progress.sliceCopied(12, 2_000);
            await().atMost(Duration.ofSeconds(5)).until(() -> lines.list().stream()
                    .anyMatch(line -> line.getFormattedMessage().contains("12/64 slices")));
        }
        var line = lines.list().get(lines.list().size() - 1).getFormattedMessage();
        assertThat(line).contains("reindex profiles-v2", "12/64 slices", "slices/s, 3,500 profiles, ", " profiles/s")
                .as("the time it ran / the time left").containsPattern("\\(\\d+:\\d\\d:\\d\\d / \\d+:\\d\\d:\\d\\d\\)");
        assertThat(line).as("one plain line: no bar redrawn in place, no colours").doesNotContain("\r", "\n", "\u001b");
    }
}
