package io.profilestore.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.AuditLog;
import io.profilestore.change.OutboxRecord;
import io.profilestore.testing.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Of a change's commits only the record's needs PostgreSQL to have made it durable (its disk, and in production its
 * synchronous standby): taking and freeing the locks do not wait for it, nor does the audit outcome written after the
 * answer. Shown on the real PostgreSQL, made to wait
 * for a synchronous standby that never comes, so that a commit which waits, waits until the test lets it go (the
 * test's own pool answers a silent server only after a minute, where the service's gives up after seconds).
 */
class LockCommitsIT {

    private static final String ABSENT_STANDBY = "profile_store_absent_standby";

    @Test
    void takingAndFreeingLocksAndAnOutcomeDoNotWaitForTheStandbyThatTheRecordWaitsFor() throws Exception {
        var settings = TestStack.configuration().postgres;
        settings.socketTimeout = io.dropwizard.util.Duration.minutes(1);
        // threads of its own: the common pool may have one, which the waiting commit would hold
        var threads = Executors.newCachedThreadPool();
        try (var pool = settings.build(new MetricRegistry(), "lock-commits-test");
                var superuser = superuser()) {
            var locks = new PostgresLockTable(pool, Duration.ofSeconds(30), new MetricRegistry());
            var audit = new AuditLog(pool);
            long record = audit.record(new AuditEntry(null, null, "lock-commits-test", "SYSTEM", List.of(), "test",
                    "", List.of(UUID.randomUUID()), null, UUID.randomUUID()));
            waitForStandby(superuser, ABSENT_STANDBY);
            CompletableFuture<Void> recording = null;
            try {
                var recorded = "test:" + UUID.randomUUID();
                recording = CompletableFuture.runAsync(() -> {
                    var lease = locks.acquire(List.of(recorded));
                    new PostgresRecordTransactions(pool).inOne(transaction -> {
                        locks.renew(transaction, lease);
                        new PostgresOutbox(pool).append(transaction,
                                List.of(OutboxRecord.profile(UUID.randomUUID(), 1, lease.fence())), locks.lease());
                    });
                    locks.release(lease);
                }, threads);
                // the record's commit waits for the standby: the setting is in force
                await("the record's commit waiting for the standby").atMost(Duration.ofSeconds(30))
                        .until(() -> committingForStandby(superuser) > 0);

                var entity = "test:" + UUID.randomUUID();
                var released = CompletableFuture.supplyAsync(() -> locks.release(locks.acquire(List.of(entity))), threads)
                        .get(10, TimeUnit.SECONDS);
                assertThat(released).isEqualTo(PostgresLockTable.Release.RELEASED);
                // freed for the next writer at once
                var next = CompletableFuture.supplyAsync(() -> locks.acquire(List.of(entity)), threads).get(10, TimeUnit.SECONDS);
                assertThat(CompletableFuture.supplyAsync(() -> locks.release(next), threads).get(10, TimeUnit.SECONDS))
                        .isEqualTo(PostgresLockTable.Release.RELEASED);
                // an outcome is written without waiting, and is there for the next reader
                CompletableFuture.runAsync(() -> audit.recordOutcome(List.of(record), 200), threads)
                        .get(10, TimeUnit.SECONDS);
                assertThat(outcome(pool, record)).isEqualTo(200);
                assertThat(recording).isNotDone();
            } finally {
                waitForStandby(superuser, "");
            }
            // the record's commit went through once no standby was asked for
            recording.get(30, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }

    /** ALTER SYSTEM outlives a restart: a run killed half-way (its finally never ran) must not stall this one. */
    @BeforeAll
    static void noStandbyLeftFromBefore() throws SQLException {
        noStandbyWaitedFor();
    }

    /** A test that failed half-way must not leave every later commit of the shared stack waiting. */
    @AfterAll
    static void noStandbyWaitedFor() throws SQLException {
        try (var superuser = superuser()) {
            waitForStandby(superuser, "");
        }
    }

    /** The local stack's superuser (trusted on 127.0.0.1): ALTER SYSTEM is for superusers only. */
    private static Connection superuser() throws SQLException {
        var url = TestStack.endpoints().postgresUrl();
        try {
            return DriverManager.getConnection(url, "postgres", "");
        } catch (SQLException e) {
            assumeTrue(false, "needs the local stack's PostgreSQL superuser to set synchronous_standby_names: " + e.getMessage());
            throw e;
        }
    }

    private static void waitForStandby(Connection superuser, String names) throws SQLException {
        try (var statement = superuser.createStatement()) {
            statement.execute(names.isEmpty()
                    ? "ALTER SYSTEM RESET synchronous_standby_names"
                    : "ALTER SYSTEM SET synchronous_standby_names = '" + names + "'");
            statement.execute("SELECT pg_reload_conf()");
        }
        await("synchronous_standby_names to be '" + names + "'").atMost(Duration.ofSeconds(10))
                .until(() -> names.equals(setting(superuser)));
    }

    private static String setting(Connection superuser) throws SQLException {
        try (var statement = superuser.createStatement();
                var rows = statement.executeQuery("SELECT setting FROM pg_settings WHERE name = 'synchronous_standby_names'")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static int outcome(DataSource pool, long record) throws SQLException {
        try (var connection = pool.getConnection();
                var statement = connection.prepareStatement("SELECT status FROM audit_outcome WHERE record_id = ?")) {
            statement.setLong(1, record);
            try (var rows = statement.executeQuery()) {
                return rows.next() ? rows.getInt(1) : -1;
            }
        }
    }

    /** Commits waiting for the standby (an explicit COMMIT, as the record's transaction ends). */
    private static int committingForStandby(Connection superuser) throws SQLException {
        try (var statement = superuser.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query = 'COMMIT'")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
