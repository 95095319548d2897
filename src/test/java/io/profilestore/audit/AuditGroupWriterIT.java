package io.profilestore.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.health.AuditWritersHealthCheck;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.TestStack;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Look-ups' records committed in groups, on the stack's PostgreSQL: each once, none acknowledged before its
 * commit, refused in bounded time when PostgreSQL hangs or the queue is full, and what is queued is committed on
 * stop.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuditGroupWriterIT {

    final MetricRegistry metrics = new MetricRegistry();
    final String run = UUID.randomUUID().toString();
    final ExecutorService callers = Executors.newCachedThreadPool();
    final List<AuditGroupWriter> writers = new ArrayList<>();

    @BeforeEach
    void stack() {
        TestStack.stack();
    }

    @AfterEach
    void stopAll() throws InterruptedException {
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

    /** How many rows hold each request of this run, read on a connection of its own. */
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

    Future<?> lookUp(AuditGroupWriter writer, String request) {
        return callers.submit((Callable<Void>) () -> {
            writer.record(entry(request));
            return null;
        });
    }

    static void await(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(condition::getAsBoolean);
    }

    long queued() {
        return ((Number) metrics.getGauges().get(AuditGroupWriter.QUEUED).getValue()).longValue();
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

    @Test
    void manyConcurrentLookUpsAreEachRecordedOnceInFewerCommits() throws Exception {
        var writer = started(TestStack.backends().postgres(), 1_000, Duration.ofSeconds(30), Duration.ofMillis(2));
        int threads = 24;
        int each = 25;
        var done = new ArrayList<Future<?>>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(callers.submit((Callable<Void>) () -> {
                for (int i = 0; i < each; i++) {
                    writer.record(entry(thread + "-" + i));
                }
                return null;
            }));
        }
        for (var future : done) {
            future.get(2, TimeUnit.MINUTES);
        }

        var recorded = recorded();
        assertThat(recorded).hasSize(threads * each);
        assertThat(recorded.values()).as("no record twice").containsOnly(1);
        var groups = metrics.histogram(AuditGroupWriter.GROUP_SIZE);
        assertThat(groups.getCount()).as("commits for %d records", threads * each).isLessThan(threads * each);
        assertThat(groups.getSnapshot().getMax()).as("the largest group").isGreaterThan(1);
        assertThat(metrics.meter(AuditLog.FAILURES).getCount()).isZero();
    }

    @Test
    void aLookUpReturnsOnlyOnceItsRecordIsCommitted() throws Exception {
        // the writer's commit held until released: its INSERT is sent, the record not yet visible to others
        var committing = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        var writer = started(withHeldCommits(TestStack.backends().postgres(), committing, release), 10,
                Duration.ofSeconds(10), Duration.ZERO);

        var lookUp = lookUp(writer, "held-commit");
        assertThat(committing.await(20, TimeUnit.SECONDS)).as("the writer reached its commit").isTrue();
        assertThat(lookUp).as("answered before its commit").isNotDone();
        assertThat(recorded()).isEmpty();
        release.countDown();
        lookUp.get(30, TimeUnit.SECONDS);

        assertThat(recorded()).as("visible from another connection once record returned").containsEntry("held-commit", 1);
    }

    /**
     * Groups of different sizes are inserted with the same SQL text, so that one prepared statement serves them all
     * (a text per group size missed the driver's statement cache every time).
     */
    @Test
    void groupsOfEverySizeAreInsertedWithOneStatement() throws Exception {
        var statements = new CopyOnWriteArrayList<String>();
        var writer = started(preparing(TestStack.backends().postgres(), statements), 10, Duration.ofSeconds(30),
                Duration.ZERO);
        writer.record(entry("alone"));
        List<Future<?>> accepted = new ArrayList<>();
        try (var held = holdingTheTable()) {
            accepted.add(lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", AuditGroupWriterIT::insertWaits);
            for (int i = 0; i < 3; i++) {
                accepted.add(lookUp(writer, "grouped-" + i));
            }
            await("three records queued", () -> queued() == 3);
            held.rollback();
        }
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }

        assertThat(recorded()).containsOnlyKeys("alone", "in-flight", "grouped-0", "grouped-1", "grouped-2")
                .allSatisfy((request, rows) -> assertThat(rows).isEqualTo(1));
        var groups = metrics.histogram(AuditGroupWriter.GROUP_SIZE).getSnapshot();
        assertThat(groups.getMin()).isEqualTo(1);
        assertThat(groups.getMax()).isEqualTo(3);
        assertThat(statements).as("the statements of groups of 1 and 3").hasSizeGreaterThanOrEqualTo(3);
        assertThat(Set.copyOf(statements)).hasSize(1);
    }

    @Test
    void aFullQueueRefusesALookUpAtOnce() throws Exception {
        var writer = started(TestStack.backends().postgres(), 2, Duration.ofSeconds(30), Duration.ZERO);
        List<Future<?>> accepted = new ArrayList<>();
        try (var held = holdingTheTable()) {
            accepted.add(lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", AuditGroupWriterIT::insertWaits);
            accepted.add(lookUp(writer, "queued-1"));
            accepted.add(lookUp(writer, "queued-2"));
            await("two records queued", () -> queued() == 2);

            long start = System.nanoTime();
            assertThatThrownBy(() -> writer.record(entry("refused"))).isInstanceOf(AuditUnavailableException.class)
                    .hasRootCauseMessage("the audit queue is full");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("refused at once").isLessThan(Duration.ofMillis(200));
            assertThat(metrics.meter(AuditLog.FAILURES).getCount()).isEqualTo(1);
            held.rollback();
        }
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }
        assertThat(recorded()).containsOnlyKeys("in-flight", "queued-1", "queued-2");
    }

    @Test
    void stoppingCommitsWhatIsQueuedAndRefusesWhatComesAfter() throws Exception {
        var writer = started(TestStack.backends().postgres(), 10, Duration.ofSeconds(30), Duration.ZERO);
        List<Future<?>> accepted = new ArrayList<>();
        Future<?> stopped;
        try (var held = holdingTheTable()) {
            accepted.add(lookUp(writer, "in-flight"));
            await("the writer's INSERT waits for the table", AuditGroupWriterIT::insertWaits);
            accepted.add(lookUp(writer, "queued-1"));
            accepted.add(lookUp(writer, "queued-2"));
            await("two records queued", () -> queued() == 2);
            stopped = callers.submit((Callable<Void>) () -> {
                writer.stop();
                return null;
            });
            await("the writer to stop taking records", () -> !writer.accepting());
            assertThatThrownBy(() -> writer.record(entry("too-late"))).isInstanceOf(AuditUnavailableException.class)
                    .hasRootCauseMessage("the service is stopping");
            held.rollback();
        }
        stopped.get(30, TimeUnit.SECONDS);
        for (var future : accepted) {
            future.get(30, TimeUnit.SECONDS);
        }
        assertThat(recorded()).containsOnlyKeys("in-flight", "queued-1", "queued-2");
    }

    /**
     * A look-up that found records taken, and is queued only once stop has ended the writer and drained the queue, is
     * refused at once, not left in the queue until its maxWait runs out.
     */
    @Test
    void aLookUpQueuedWhileTheWriterStopsIsRefusedAtOnce() throws Exception {
        var writer = started(TestStack.backends().postgres(), 10, Duration.ofSeconds(30), Duration.ZERO);
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
        var lookUp = lookUp(writer, "racing-stop");
        assertThat(checked.await(20, TimeUnit.SECONDS)).as("the look-up found records taken").isTrue();
        writer.stop();
        queue.countDown();

        assertThatThrownBy(() -> lookUp.get(5, TimeUnit.SECONDS)).as("refused well within its maxWait (30 s)")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseMessage("the service is stopping");
        assertThat(queued()).isZero();
        assertThat(recorded()).isEmpty();
    }

    /**
     * An Error from the driver (here a StackOverflowError on getting a connection) refuses the look-ups of its group at
     * once, and the writer goes on with the next: it does not die and leave every later look-up to wait maxWait.
     */
    @Test
    void aGroupThatThrowsAnErrorIsRefusedAtOnceAndTheWriterGoesOn() throws Exception {
        var writer = started(throwingOnce(TestStack.backends().postgres(), new StackOverflowError("from the driver")), 10,
                Duration.ofSeconds(30), Duration.ZERO);
        var health = new AuditWritersHealthCheck(List.of(writer));

        assertThatThrownBy(() -> lookUp(writer, "overflowed").get(5, TimeUnit.SECONDS)).as("refused well within maxWait")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseInstanceOf(StackOverflowError.class);
        lookUp(writer, "next").get(5, TimeUnit.SECONDS);

        assertThat(recorded()).containsOnlyKeys("next");
        assertThat(health.execute().isHealthy()).isTrue();
    }

    /**
     * A VirtualMachineError but a stack overflow (here an InternalError) ends the writer: its group is refused at once,
     * later look-ups are refused at once too (none waits maxWait for a writer that is gone), and the health check
     * reports it while the service runs.
     */
    @Test
    void aWriterEndedByTheJvmFailingIsReportedAndRefusesAtOnce() throws Exception {
        var writer = started(throwingOnce(TestStack.backends().postgres(), new InternalError("the JVM failed")), 10,
                Duration.ofSeconds(30), Duration.ZERO);
        var health = new AuditWritersHealthCheck(List.of(writer));
        assertThat(health.execute().isHealthy()).as("healthy while writing").isTrue();

        assertThatThrownBy(() -> lookUp(writer, "failed").get(5, TimeUnit.SECONDS)).as("refused well within maxWait")
                .hasCauseInstanceOf(AuditUnavailableException.class).hasRootCauseInstanceOf(InternalError.class);
        // the Error ends the writer's thread uncaught, as it should; Awaitility would take it for the test's own failure
        // when the thread ends while it waits (by default it fails on an uncaught exception of any thread)
        Awaitility.await("the writer's thread to end").dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(10)).until(writer::stalled);
        assertThatThrownBy(() -> writer.record(entry("after"))).isInstanceOf(AuditUnavailableException.class)
                .hasRootCauseMessage("the audit writer has ended");

        var result = health.execute();
        assertThat(result.isHealthy()).isFalse();
        assertThat(result.getMessage()).contains("audit-group-writer");
        assertThat(recorded()).isEmpty();
    }

    @Test
    @EnabledIf("io.profilestore.testing.TestStack#canPause")
    void withPostgresFrozenLookUpsAreRefusedWithinTheBoundAndRecordedAgainOnceItIsBack() throws Exception {
        var maxWait = Duration.ofSeconds(1);
        var writer = started(TestStack.backends().postgres(), 1_000, maxWait, Duration.ZERO);
        writer.record(entry("before")); // a connection in the pool: the freeze meets a statement, not a connect
        var refused = new ArrayList<Future<Duration>>();
        TestStack.stack().pause(Service.POSTGRES);
        try {
            for (int i = 0; i < 12; i++) {
                int n = i;
                refused.add(callers.submit(() -> {
                    long start = System.nanoTime();
                    assertThatThrownBy(() -> writer.record(entry("frozen-" + n))).isInstanceOf(AuditUnavailableException.class);
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
        assertThat(metrics.meter(AuditLog.FAILURES).getCount()).isEqualTo(12);

        // back: the writer goes on (a group frozen mid-statement fails or commits, and is never written again)
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                writer.record(entry("after"));
                break;
            } catch (AuditUnavailableException e) {
                assertThat(System.nanoTime()).as("recovered within 30 s").isLessThan(end);
            }
        }
        var recorded = recorded();
        assertThat(recorded).containsEntry("before", 1).containsEntry("after", 1);
        assertThat(recorded.values()).as("no record twice").containsOnly(1);
    }

    /** What a connection of {@link #watching} runs before each of its calls. */
    interface BeforeCall {
        void run(Method method, Object[] args) throws Throwable;
    }

    /** The data source, whose connections run {@code before} ahead of each call. */
    static DataSource watching(DataSource dataSource, BeforeCall before) {
        return (DataSource) Proxy.newProxyInstance(AuditGroupWriterIT.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(dataSource, method, args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    var connection = (Connection) result;
                    return Proxy.newProxyInstance(AuditGroupWriterIT.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                before.run(m, a);
                                return invoke(connection, m, a);
                            });
                });
    }

    /** The data source, whose connections add the SQL text of each statement they prepare to {@code statements}. */
    static DataSource preparing(DataSource dataSource, List<String> statements) {
        return watching(dataSource, (method, args) -> {
            if (method.getName().equals("prepareStatement")) {
                statements.add((String) args[0]);
            }
        });
    }

    /** The data source, whose connections' commits say they are reached and wait for {@code release} (30 s at most). */
    static DataSource withHeldCommits(DataSource dataSource, CountDownLatch reached, CountDownLatch release) {
        return watching(dataSource, (method, args) -> {
            if (method.getName().equals("commit")) {
                reached.countDown();
                if (!release.await(30, TimeUnit.SECONDS)) {
                    throw new SQLException("the test never released the commit");
                }
            }
        });
    }

    /** The data source, whose first getConnection throws {@code thrown}; the others pass. */
    static DataSource throwingOnce(DataSource dataSource, Throwable thrown) {
        var thrownYet = new AtomicBoolean();
        return (DataSource) Proxy.newProxyInstance(AuditGroupWriterIT.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection") && thrownYet.compareAndSet(false, true)) {
                        throw thrown;
                    }
                    return invoke(dataSource, method, args);
                });
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
