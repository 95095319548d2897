package io.profilestore.audit;

import static io.profilestore.audit.GroupWriterFixture.await;
import static io.profilestore.audit.GroupWriterFixture.holdingTheTable;
import static io.profilestore.audit.WatchedDataSources.throwingOnce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.health.AuditWritersHealthCheck;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Look-ups the audit group writer cannot record are refused in bounded time, never left waiting: a full queue, an
 * Error from the driver, a writer the JVM's failure ended, a frozen PostgreSQL; and it records again once it can.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuditGroupWriterRefusalsIT {

    @RegisterExtension
    final GroupWriterFixture fixture = new GroupWriterFixture();

    @Test
    void aFullQueueRefusesALookUpAtOnce() throws Exception {
        var writer = fixture.started(TestStack.backends().postgres(), 2, Duration.ofSeconds(30), Duration.ZERO);
        List<Future<?>> accepted = new ArrayList<>();
        try (var held = holdingTheTable()) {
            accepted.add(fixture.lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", GroupWriterFixture::insertWaits);
            accepted.add(fixture.lookUp(writer, "queued-1"));
            accepted.add(fixture.lookUp(writer, "queued-2"));
            await("two records queued", () -> fixture.queued() == 2);

            long start = System.nanoTime();
            assertThatThrownBy(() -> writer.record(fixture.entry("refused"))).isInstanceOf(AuditUnavailableException.class)
                    .hasRootCauseMessage("the audit queue is full");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused at once").isLessThan(Duration.ofMillis(200));
            assertThat(fixture.metrics.meter(AuditLog.FAILURES).getCount()).isEqualTo(1);
            held.rollback();
        }
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }
        assertThat(fixture.recorded()).containsOnlyKeys("in-flight", "queued-1", "queued-2");
    }

    /**
     * An Error from the driver (here a StackOverflowError on getting a connection) refuses the look-ups of its group at
     * once, and the writer goes on with the next: it does not die and leave every later look-up to wait maxWait.
     */
    @Test
    void aGroupThatThrowsAnErrorIsRefusedAtOnceAndTheWriterGoesOn() throws Exception {
        var writer = fixture.started(throwingOnce(TestStack.backends().postgres(), new StackOverflowError("from the driver")), 10,
                Duration.ofSeconds(30), Duration.ZERO);
        var health = new AuditWritersHealthCheck(List.of(writer));

        assertThatThrownBy(() -> fixture.lookUp(writer, "overflowed").get(5, TimeUnit.SECONDS)).as("refused well within maxWait")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseInstanceOf(StackOverflowError.class);
        fixture.lookUp(writer, "next").get(5, TimeUnit.SECONDS);

        assertThat(fixture.recorded()).containsOnlyKeys("next");
        assertThat(health.execute().isHealthy()).isTrue();
    }

    /**
     * A VirtualMachineError but a stack overflow (here an InternalError) ends the writer: its group is refused at once,
     * later look-ups are refused at once too (none waits maxWait for a writer that is gone), and the health check
     * reports it while the service runs.
     */
    @Test
    void aWriterEndedByTheJvmFailingIsReportedAndRefusesAtOnce() throws Exception {
        var writer = fixture.started(throwingOnce(TestStack.backends().postgres(), new InternalError("the JVM failed")), 10,
                Duration.ofSeconds(30), Duration.ZERO);
        var health = new AuditWritersHealthCheck(List.of(writer));
        assertThat(health.execute().isHealthy()).as("healthy while writing").isTrue();

        assertThatThrownBy(() -> fixture.lookUp(writer, "failed").get(5, TimeUnit.SECONDS)).as("refused well within maxWait")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseInstanceOf(InternalError.class);
        // the Error ends the writer's thread uncaught, as it should; Awaitility would take it for the test's own failure
        // when the thread ends while it waits (by default it fails on an uncaught exception of any thread)
        Awaitility.await("the writer's thread to end").dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(10)).until(writer::stalled);
        assertThatThrownBy(() -> writer.record(fixture.entry("after"))).isInstanceOf(AuditUnavailableException.class)
                .hasRootCauseMessage("the audit writer has ended");

        var result = health.execute();
        assertThat(result.isHealthy()).isFalse();
        assertThat(result.getMessage()).contains("audit-group-writer");
        assertThat(fixture.recorded()).isEmpty();
    }

    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void withPostgresFrozenLookUpsAreRefusedWithinTheBoundAndRecordedAgainOnceItIsBack() throws Exception {
        var maxWait = Duration.ofSeconds(1);
        var writer = fixture.started(TestStack.backends().postgres(), 1_000, maxWait, Duration.ZERO);
        writer.record(fixture.entry("before")); // a connection in the pool: the freeze meets a statement, not a connect
        var refused = new ArrayList<Future<Duration>>();
        TestStack.stack().pause(Service.POSTGRES);
        try {
            for (int i = 0; i < 12; i++) {
                int n = i;
                refused.add(fixture.callers.submit(() -> {
                    long start = System.nanoTime();
                    assertThatThrownBy(() -> writer.record(fixture.entry("frozen-" + n))).isInstanceOf(AuditUnavailableException.class);
                    return Duration.ofNanos(System.nanoTime() - start);
                }));
            }
            for (var future : refused) {
                assertThat(future.get(30, TimeUnit.SECONDS)).as("refused within the bound")
                        .isLessThan(maxWait.plusMillis(500));
            }
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }
        assertThat(fixture.metrics.meter(AuditLog.FAILURES).getCount()).isEqualTo(12);

        // back: the writer goes on (a group frozen mid-statement fails or commits, and is never written again)
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                writer.record(fixture.entry("after"));
                break;
            } catch (AuditUnavailableException e) {
                assertThat(System.nanoTime()).as("recovered within 30 s").isLessThan(end);
            }
        }
        var recorded = fixture.recorded();
        assertThat(recorded).containsEntry("before", 1).containsEntry("after", 1);
        assertThat(recorded.values()).as("no record twice").containsOnly(1);
    }
}
