package io.profilestore.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.stack.LocalStack;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Writes that time out are sent again until Cassandra confirms them. The timeouts are real: Cassandra is frozen
 * (SIGSTOP or docker pause) while an attempt waits, and the write it was sent is applied once it thaws.
 */
@EnabledIf("io.profilestore.testing.TestStack#canPause")
class IdempotentWriterIT {

    static final Duration ATTEMPT = Duration.ofMillis(700);

    @BeforeAll
    static void table() {
        var session = TestStack.backends().cassandra();
        TestStack.changeSchema(session, "CREATE TABLE IF NOT EXISTS profiles.writer_test (id uuid PRIMARY KEY, v int)");
    }

    static SimpleStatement insert(UUID id, int value) {
        return SimpleStatement.newInstance("INSERT INTO profiles.writer_test (id, v) VALUES (?, ?)", id, value)
                .setQueryTimestamp(1_000_000L + value)
                .setIdempotent(true);
    }

    @Test
    void aWriteThatTimesOutIsRetriedUntilConfirmed() {
        var metrics = new MetricRegistry();
        var stack = TestStack.stack();
        // attempts 1 and 2 wait on a frozen Cassandra; attempt 3 finds it thawed
        var writer = new IdempotentWriter(TestStack.backends().cassandra(), 3, attempt -> {
            if (attempt == 3) {
                stack.resume(LocalStack.Service.CASSANDRA);
            }
            return ATTEMPT;
        }, metrics);
        var id = UUID.randomUUID();

        stack.pause(LocalStack.Service.CASSANDRA);
        try {
            writer.execute(insert(id, 42));
        } finally {
            stack.resume(LocalStack.Service.CASSANDRA);
        }

        var row = TestStack.backends().cassandra()
                .execute(SimpleStatement.newInstance("SELECT v FROM profiles.writer_test WHERE id = ?", id)).one();
        assertThat(row).isNotNull();
        assertThat(row.getInt("v")).isEqualTo(42);
        assertThat(metrics.meter(MetricRegistry.name(IdempotentWriter.class, "retries")).getCount()).isEqualTo(2);
    }

    @Test
    void aWriteNeverConfirmedIsReportedAsMaybeApplied() {
        var writer = new IdempotentWriter(TestStack.backends().cassandra(), 2, attempt -> ATTEMPT, new MetricRegistry());
        var id = UUID.randomUUID();

        TestStack.stack().pause(LocalStack.Service.CASSANDRA);
        try {
            assertThatThrownBy(() -> writer.execute(insert(id, 1)))
                    .isInstanceOf(CassandraUnavailableException.class)
                    .satisfies(e -> assertThat(((CassandraUnavailableException) e).maybeApplied()).isTrue());
        } finally {
            TestStack.stack().resume(LocalStack.Service.CASSANDRA);
        }
        // and indeed it was: Cassandra applies what it had been sent once it thaws
        await("the unconfirmed write to be applied").atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> TestStack.backends().cassandra()
                .execute(SimpleStatement.newInstance("SELECT v FROM profiles.writer_test WHERE id = ?", id)).one() != null);
    }

    @Test
    void onlyIdempotentWritesAreAccepted() {
        var writer = new IdempotentWriter(TestStack.backends().cassandra(), 3, new MetricRegistry());
        var notIdempotent = SimpleStatement.newInstance("INSERT INTO profiles.writer_test (id, v) VALUES (?, 1)",
                UUID.randomUUID());

        assertThatThrownBy(() -> writer.execute(notIdempotent)).isInstanceOf(IllegalArgumentException.class);
    }
}
