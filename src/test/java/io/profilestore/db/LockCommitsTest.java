package io.profilestore.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Of a change's three commits only the record's waits until PostgreSQL has made it durable (its disk, and in
 * production its synchronous standby): taking and freeing the locks do not. Shown on the real PostgreSQL, made to
 * wait for a synchronous standby that never comes, so that a commit which waits, waits until the test lets it go.
 */
class LockCommitsTest {

    private static final String ABSENT_STANDBY = "profile_store_absent_standby";

    @Test
    void takingAndFreeingLocksDoNotWaitForTheStandbyThatTheRecordWaitsFor() throws Exception {
        var locks = new EntityLocks(TestStack.backends().postgres(), Duration.ofSeconds(30));
        // threads of its own: the common pool may have one, which the waiting commit would hold
        var threads = Executors.newCachedThreadPool();
        try (var superuser = superuser()) {
            waitForStandby(superuser, ABSENT_STANDBY);
            CompletableFuture<Void> recording = null;
            try {
                var recorded = "test:" + UUID.randomUUID();
                recording = CompletableFuture.runAsync(() -> {
                    var lease = locks.acquire(List.of(recorded));
                    locks.recordChange(lease, List.of(OutboxRecord.profile(UUID.randomUUID(), 1, lease.fence())));
                    locks.release(lease);
                }, threads);
                // a commit that waits for the standby waits: the setting is in force
                await("a commit waiting for the standby").atMost(Duration.ofSeconds(30))
                        .until(() -> waitingForStandby(superuser) > 0);

                var entity = "test:" + UUID.randomUUID();
                var released = CompletableFuture.supplyAsync(() -> locks.release(locks.acquire(List.of(entity))), threads)
                        .get(10, TimeUnit.SECONDS);
                assertThat(released).isEqualTo(EntityLocks.Release.RELEASED);
                // freed for the next writer at once
                var next = CompletableFuture.supplyAsync(() -> locks.acquire(List.of(entity)), threads).get(10, TimeUnit.SECONDS);
                assertThat(CompletableFuture.supplyAsync(() -> locks.release(next), threads).get(10, TimeUnit.SECONDS))
                        .isEqualTo(EntityLocks.Release.RELEASED);
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

    @AfterAll
    static void noStandbyWaitedFor() throws SQLException {
        // a test that failed half-way must not leave every later commit of the shared stack waiting
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

    private static int waitingForStandby(Connection superuser) throws SQLException {
        try (var statement = superuser.createStatement();
                var rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
