package io.profilestore.audit;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.testing.TestStack;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the tests of {@link AuditGroupWriter} share, one per test ({@code @RegisterExtension}): writers on the stack's
 * PostgreSQL, stopped after the test; look-ups from callers' threads; and the rows this test's look-ups left in the
 * audit table, told apart from every other test's by a run id in their request.
 */
final class GroupWriterFixture implements BeforeEachCallback, AfterEachCallback {

    final MetricRegistry metrics = new MetricRegistry();
    final ExecutorService callers = Executors.newCachedThreadPool();
    private final String run = UUID.randomUUID().toString();
    private final List<AuditGroupWriter> writers = new ArrayList<>();

    @Override
    public void beforeEach(ExtensionContext context) {
        TestStack.stack();
    }

    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        callers.shutdownNow();
        for (var writer : writers) {
            writer.stop();
        }
    }

    AuditGroupWriter started(DataSource dataSource, int queueSize, Duration maxWait, Duration linger) {
        var settings = new AuditSettings();
        settings.queueSize = queueSize;
        settings.maxWait = io.dropwizard.util.Duration.milliseconds(maxWait.toMillis());
        settings.linger = io.dropwizard.util.Duration.milliseconds(linger.toMillis());
        var writer = new AuditGroupWriter(dataSource, settings, metrics);
        writer.start();
        writers.add(writer);
        return writer;
    }

    AuditEntry entry(String request) {
        return new AuditEntry(null, null, "group-test", "API_KEY", List.of("operator"), "GET /v1/profiles/{pid}",
                "/group-test/" + run + "/" + request, List.of(UUID.randomUUID()), 200);
    }

    /** How many rows hold each request of this test, read on a connection of its own. */
    Map<String, Integer> recorded() throws SQLException {
        var found = new HashMap<String, Integer>();
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT request, count(*) FROM audit_record WHERE request LIKE ? GROUP BY request")) {
            statement.setString(1, "/group-test/" + run + "/%");
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.put(rows.getString(1).substring(("/group-test/" + run + "/").length()), rows.getInt(2));
                }
            }
        }
        return found;
    }

    /** A look-up recorded from a caller's thread; its future ends when {@code record} returns or throws. */
    Future<?> lookUp(AuditGroupWriter writer, String request) {
        return callers.submit((Callable<Void>) () -> {
            writer.record(entry(request));
            return null;
        });
    }

    long queued() {
        return ((Number) metrics.getGauges().get(AuditGroupWriter.QUEUED).getValue()).longValue();
    }

    static void await(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }

    /** A transaction of the tables' owner that holds the audit table: inserts wait for it (PostgreSQL's own lock). */
    static Connection holdingTheTable() throws SQLException {
        var connection = TestStack.asOwner().getConnection();
        connection.setAutoCommit(false);
        try (var statement = connection.createStatement()) {
            statement.execute("LOCK TABLE audit_record IN EXCLUSIVE MODE");
        }
        return connection;
    }

    /** Whether a statement waits for a lock on the audit table (the writer's INSERT, held by the owner's lock). */
    static boolean insertWaits() {
        return TestStack.waitsForLock("audit_record");
    }
}
