package io.profilestore.audit;

import static io.profilestore.audit.GroupWriterFixture.await;
import static io.profilestore.audit.GroupWriterFixture.holdingTheTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Stopping the audit group writer: what is queued is committed, and a look-up that comes after, or while it stops, is
 * refused at once.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuditGroupWriterStopIT {

    @RegisterExtension
    final GroupWriterFixture fixture = new GroupWriterFixture();

    @Test
    void stoppingCommitsWhatIsQueuedAndRefusesWhatComesAfter() throws Exception {
        var writer = fixture.started(TestStack.backends().postgres(), 10, Duration.ofSeconds(30), Duration.ZERO);
        List<Future<?>> accepted = new ArrayList<>();
        Future<?> stopped;
        try (var held = holdingTheTable()) {
            accepted.add(fixture.lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", GroupWriterFixture::insertWaits);
            accepted.add(fixture.lookUp(writer, "queued-1"));
            accepted.add(fixture.lookUp(writer, "queued-2"));
            await("two records queued", () -> fixture.queued() == 2);
            stopped = fixture.callers.submit((Callable<Void>) () -> {
                writer.stop();
                return null;
            });
            await("the writer to stop taking records", () -> !writer.accepting());
            assertThatThrownBy(() -> writer.record(fixture.entry("too-late"))).isInstanceOf(AuditUnavailableException.class)
                    .hasRootCauseMessage("the service is stopping");
            held.rollback();
        }
        stopped.get(30, TimeUnit.SECONDS);
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }
        assertThat(fixture.recorded()).containsOnlyKeys("in-flight", "queued-1", "queued-2");
    }

    /**
     * A look-up that found records taken, and is queued only once stop has ended the writer and drained the queue, is
     * refused at once, not left in the queue until its maxWait runs out.
     */
    @Test
    void aLookUpQueuedWhileTheWriterStopsIsRefusedAtOnce() throws Exception {
        var writer = fixture.started(TestStack.backends().postgres(), 10, Duration.ofSeconds(30), Duration.ZERO);
        var checked = new CountDownLatch(1);
        var queue = new CountDownLatch(1);
        writer.beforeQueueing(() -> {
            checked.countDown();
            try {
                queue.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        var lookUp = fixture.lookUp(writer, "racing-stop");
        assertThat(checked.await(20, TimeUnit.SECONDS)).as("the look-up found records taken").isTrue();
        writer.stop();
        queue.countDown();

        assertThatThrownBy(() -> lookUp.get(5, TimeUnit.SECONDS)).as("refused well within its maxWait (30 s)")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseMessage("the service is stopping");
        assertThat(fixture.queued()).isZero();
        assertThat(fixture.recorded()).isEmpty();
    }
}
