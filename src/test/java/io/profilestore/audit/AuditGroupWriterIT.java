package io.profilestore.audit;

import static io.profilestore.audit.GroupWriterFixture.await;
import static io.profilestore.audit.GroupWriterFixture.holdingTheTable;
import static io.profilestore.audit.WatchedDataSources.preparing;
import static io.profilestore.audit.WatchedDataSources.withHeldCommits;
import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Look-ups' records committed in groups, on the stack's PostgreSQL: each once, in fewer commits than records, with
 * one statement for every group size, and none acknowledged before its commit. Refusals: {@link
 * AuditGroupWriterRefusalsIT}; stopping: {@link AuditGroupWriterStopIT}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuditGroupWriterIT {

    @RegisterExtension
    final GroupWriterFixture fixture = new GroupWriterFixture();

    @Test
    void manyConcurrentLookUpsAreEachRecordedOnceInFewerCommits() throws Exception {
        var writer = fixture.started(TestStack.backends().postgres(), 1_000, Duration.ofSeconds(30), Duration.ofMillis(2));
        int threads = 24;
        int each = 25;
        var done = new ArrayList<Future<?>>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(fixture.callers.submit((Callable<Void>) () -> {
                for (int i = 0; i < each; i++) {
                    writer.record(fixture.entry(thread + "-" + i));
                }
                return null;
            }));
        }
        for (var future : done) {
            future.get(2, TimeUnit.MINUTES);
        }

        var recorded = fixture.recorded();
        assertThat(recorded).hasSize(threads * each);
        assertThat(recorded.values()).as("no record twice").containsOnly(1);
        var groups = fixture.metrics.histogram(AuditGroupWriter.GROUP_SIZE);
        assertThat(groups.getCount()).as("commits for %d records", threads * each).isLessThan(threads * each);
        assertThat(groups.getSnapshot().getMax()).as("the largest group").isGreaterThan(1);
        assertThat(fixture.metrics.meter(AuditLog.FAILURES).getCount()).isZero();
    }

    @Test
    void aLookUpReturnsOnlyOnceItsRecordIsCommitted() throws Exception {
        // the writer's commit held until released: its INSERT is sent, the record not yet visible to others
        var committing = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var writer = fixture.started(withHeldCommits(TestStack.backends().postgres(), committing, release), 10,
                Duration.ofSeconds(10), Duration.ZERO);

        var lookUp = fixture.lookUp(writer, "held-commit");
        assertThat(committing.await(20, TimeUnit.SECONDS)).as("the writer reached its commit").isTrue();
        assertThat(lookUp).as("answered before its commit").isNotDone();
        assertThat(fixture.recorded()).isEmpty();
        release.countDown();
        lookUp.get(30, TimeUnit.SECONDS);

        assertThat(fixture.recorded()).as("visible from another connection once record returned").containsEntry("held-commit", 1);
    }

    /**
     * Groups of different sizes are inserted with the same SQL text, so that one prepared statement serves them all
     * (a text per group size missed the driver's statement cache every time).
     */
    @Test
    void groupsOfEverySizeAreInsertedWithOneStatement() throws Exception {
        var statements = new CopyOnWriteArrayList<String>();
        var writer = fixture.started(preparing(TestStack.backends().postgres(), statements), 10, Duration.ofSeconds(30),
                Duration.ZERO);
        writer.record(fixture.entry("alone"));
        List<Future<?>> accepted = new ArrayList<>();
        try (var held = holdingTheTable()) {
            accepted.add(fixture.lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", GroupWriterFixture::insertWaits);
            for (int i = 0; i < 3; i++) {
                accepted.add(fixture.lookUp(writer, "grouped-" + i));
            }
            await("three records queued", () -> fixture.queued() == 3);
            held.rollback();
        }
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }

        assertThat(fixture.recorded()).containsOnlyKeys("alone", "in-flight", "grouped-0", "grouped-1", "grouped-2")
                .allSatisfy((request, rows) -> assertThat(rows).isEqualTo(1));
        var groups = fixture.metrics.histogram(AuditGroupWriter.GROUP_SIZE).getSnapshot();
        assertThat(groups.getMin()).isEqualTo(1);
        assertThat(groups.getMax()).isEqualTo(3);
        assertThat(statements).as("the statements of groups of 1 and 3").hasSizeGreaterThanOrEqualTo(3);
        assertThat(Set.copyOf(statements)).hasSize(1);
    }
}
