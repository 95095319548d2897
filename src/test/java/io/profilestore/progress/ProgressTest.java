package io.profilestore.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Away from a terminal (a Job's log), the import's progress is a plain line now and then, with its rate and time left. */
class ProgressTest {

    final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    final Logger logger = (Logger) LoggerFactory.getLogger(Progress.class);

    @BeforeEach
    void listen() {
        lines.start();
        logger.addAppender(lines);
    }

    @AfterEach
    void stop() {
        logger.detachAppender(lines);
    }

    @Test
    void inALogEachLineSaysHowFarWithTheRateAndTheTimeLeft() {
        try (var progress = new Progress("import", " records", 1_000, 100, false, Duration.ofMillis(50))) {
            progress.at(400);
            await().atMost(Duration.ofSeconds(10)).until(() -> !lines.list.isEmpty());
        }
        var line = lines.list.get(lines.list.size() - 1).getFormattedMessage();
        assertThat(line).contains("import", "400/1000 records", "records/s").as("the time it ran / the time left")
                .containsPattern("\\(\\d+:\\d\\d:\\d\\d / \\d+:\\d\\d:\\d\\d\\)");
        assertThat(line).as("one plain line: no bar redrawn in place, no colours").doesNotContain("\r", "\n", "\u001b");
    }
}
