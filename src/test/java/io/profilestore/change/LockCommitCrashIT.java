package io.profilestore.change;

import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.PausingProbe;
import io.profilestore.testing.PausingProbe.Step;
import io.profilestore.testing.ProbedApplication;
import io.profilestore.testing.TestStack;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PostgreSQL crashes (kill -9 of the whole server) between a lock's asynchronous commit and the change's record
 * (step 3), or just after a release: what docs/design/write-path.md ("Locks") claims then. Taking and releasing locks
 * commit with {@code synchronous_commit = off}: such a commit sits in PostgreSQL's WAL buffers until the WAL writer
 * writes it out (within three times {@code wal_writer_delay}, 200 ms, at worst) or a later synchronous
 * commit flushes the log past it: the next change's record. (The relay's marks and the audit outcomes commit
 * asynchronously too; they flushed the log when this test was written, and holding them still does no harm.) A kill -9
 * loses only what had not been written out yet; a machine's crash loses also what the kernel had not put on the disk.
 * To crash inside that window for certain, each test freezes the WAL writer (SIGSTOP) and RabbitMQ (the outbox relay's
 * commits wait for its confirms), holds the audit outcomes (their table locked), and checks after the restart that the
 * commit was in fact lost.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LockCommitCrashIT {

    static final PausingProbe PROBE = ProbedApplication.PROBE;

    /**
     * Longer than a crash and a restart of PostgreSQL take here, so that neither test's lease runs out on its own
     * meanwhile: a writer that answers 503 lease-lost then does so because its lock was lost, and a lost release
     * shows while the lease still runs.
     */
    static final Duration LEASE = Duration.ofSeconds(20);

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProbedApplication.class, TestStack.configPath(),
            TestStack.configOverrides(Map.of("profiles.lockLease", LEASE.toSeconds() + "s")));

    private Connection superuser;
    /** Holds the audit outcomes' table until the crash ends it (closing it first would let them commit). */
    private Connection outcomesHeld;
    private long walWriter;
    private boolean rabbitmqFrozen;

    @BeforeEach
    void holdEverythingThatWouldWriteTheLogOut() throws Exception {
        assumeTrue(TestStack.stack().canCrash(), "crashing PostgreSQL needs the local stack's processes");
        superuser = DriverManager.getConnection(TestStack.endpoints().postgresUrl(), "postgres", "");
        walWriter = walWriterPid();
        signal("STOP", walWriter);
        rabbitmqFrozen = true; // before the pause: one that fails halfway has frozen some of RabbitMQ's processes
        TestStack.stack().pause(Service.RABBITMQ);
    }

    @AfterEach
    void letThemGo() throws Exception {
        if (rabbitmqFrozen) {
            TestStack.stack().resume(Service.RABBITMQ);
        }
        if (outcomesHeld != null) {
            closeQuietly(outcomesHeld);
        }
        if (ProcessHandle.of(walWriter).isPresent()) {
            signal("CONT", walWriter); // not crashed (a test failed first): a frozen WAL writer would hang a shutdown
        }
        superuser.close();
    }

    @Test
    void aLockLostInACrashBeforeItsChangeWasRecordedIsFoundGoneAtTheRecordAndNothingIsWritten() throws Exception {
        var api = new Api(APP.getLocalPort());
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        holdWhatWouldWriteTheLogOut(); // the create's commits, its release among them, are on the disk: not what follows
        var pause = PROBE.pauseNext(pid, Step.LOCKED);

        var put = CompletableFuture.supplyAsync(() -> api.put(pid, etag(1), "{\"surname\": \"Потерянная\"}"));
        var lease = pause.awaitReached(Duration.ofSeconds(10));
        assertThat(lockHolder(pid)).as("the lock taken, its commit not written out").contains(lease.holder());
        restartAfterKill9();
        assertThat(lockHolder(pid)).as("the lock's asynchronous commit lost in the crash").isNotEqualTo(Optional.of(lease.holder()));
        pause.resume();
        var reply = put.get(30, TimeUnit.SECONDS);

        Api.assertProblem(reply, 503, "lease-lost");
        assertThat(reply.json().path("detail").asText()).contains("was not applied");
        var read = api.get(pid);
        assertThat(read.version()).as("nothing written to Cassandra").isEqualTo(1);
        assertThat(read.json().path("data").path("surname").asText()).isEqualTo("Орлова");
        assertThat(outboxRecords(pid, 2)).as("no record of a version 2 for the indexer").isZero();
    }

    @Test
    void aReleaseLostInACrashMakesThePidAnswer409UntilTheLeaseRunsOut() throws Exception {
        var api = new Api(APP.getLocalPort());
        var pid = api.create("{\"surname\": \"Орлова\"}").pid();
        holdWhatWouldWriteTheLogOut();

        var done = api.put(pid, etag(1), "{\"surname\": \"Первая\"}");
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        restartAfterKill9();
        var leaseUntil = leaseUntil(pid);
        assertThat(leaseUntil).as("the release's asynchronous commit lost: the lock still held, until its lease ends")
                .isPresent().get().matches(until -> until.isAfter(Instant.now()));

        var next = firstAnswerOnceReachable(() -> api.put(pid, etag(2), "{\"surname\": \"Вторая\"}"));
        Api.assertProblem(next, 409, "locked");
        var written = new AtomicReference<Instant>();
        await("the pid to take changes again once the lease ran out").atMost(LEASE.plusSeconds(15))
                .pollInterval(Duration.ofMillis(500)).until(() -> {
                    var reply = api.put(pid, etag(2), "{\"surname\": \"Вторая\"}");
                    if (reply.status() == 200) {
                        written.set(Instant.now());
                        return true;
                    }
                    Api.assertProblem(reply, 409, "locked");
                    return false;
                });
        assertThat(written.get()).as("not before the lease ran out").isAfterOrEqualTo(leaseUntil.get());
        assertThat(api.get(pid).version()).isEqualTo(3);
    }

    /** kill -9 of the whole server, started again on its data (it recovers from its log), and ready. */
    private void restartAfterKill9() throws SQLException {
        closeQuietly(superuser);
        try (var crash = TestStack.stack().crash(Service.POSTGRES)) {
            assertThat(ProcessHandle.of(walWriter)).as("the WAL writer died with the server").isEmpty();
        }
        superuser = DriverManager.getConnection(TestStack.endpoints().postgresUrl(), "postgres", "");
    }

    /**
     * The service's pool may hand out a connection the crash broke once (503 postgres-unavailable, nothing
     * changed): the first answer that is not that.
     */
    private static Api.Reply firstAnswerOnceReachable(Supplier<Api.Reply> request) {
        var answer = new AtomicReference<Api.Reply>();
        await("an answer from a service that reaches PostgreSQL again").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    answer.set(request.get());
                    return !answer.get().body().contains("/postgres-unavailable");
                });
        return answer.get();
    }

    /**
     * The audit outcomes held (each change's, written just after its answer, flushed the log past the commits before
     * it while its commit waited for the disk): their table locked against inserts in a transaction left open until the crash (one still queued
     * waits, and is lost in the crash: it stays unknown in the trail); then everything in the log so far written out
     * (a checkpoint flushes the log up to itself).
     */
    private void holdWhatWouldWriteTheLogOut() throws SQLException {
        outcomesHeld = DriverManager.getConnection(TestStack.endpoints().postgresUrl(), "postgres", "");
        outcomesHeld.setAutoCommit(false);
        try (var statement = outcomesHeld.createStatement()) {
            statement.execute("LOCK TABLE audit_outcome IN SHARE MODE");
        }
        try (var statement = superuser.createStatement()) {
            statement.execute("CHECKPOINT");
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // broken by the crash: nothing to close
        }
    }

    private long walWriterPid() throws SQLException {
        try (var statement = superuser.createStatement();
                var rows = statement.executeQuery("SELECT pid FROM pg_stat_activity WHERE backend_type = 'walwriter'")) {
            assertThat(rows.next()).as("PostgreSQL's WAL writer").isTrue();
            return rows.getLong(1);
        }
    }

    private Optional<UUID> lockHolder(UUID pid) throws SQLException {
        try (var statement = superuser.prepareStatement("SELECT holder FROM entity_lock WHERE entity = ?")) {
            statement.setString(1, LockTable.profile(pid));
            try (var rows = statement.executeQuery()) {
                return rows.next() ? Optional.ofNullable(rows.getObject(1, UUID.class)) : Optional.empty();
            }
        }
    }

    /** When the pid's lock runs out, while someone holds it. */
    private Optional<Instant> leaseUntil(UUID pid) throws SQLException {
        try (var statement = superuser.prepareStatement(
                "SELECT lease_until FROM entity_lock WHERE entity = ? AND holder IS NOT NULL")) {
            statement.setString(1, LockTable.profile(pid));
            try (var rows = statement.executeQuery()) {
                return rows.next() ? Optional.of(rows.getTimestamp(1)).map(Timestamp::toInstant) : Optional.empty();
            }
        }
    }

    private long outboxRecords(UUID pid, long version) throws SQLException {
        try (var statement = superuser.prepareStatement("SELECT count(*) FROM outbox WHERE entity_id = ? AND version = ?")) {
            statement.setObject(1, pid);
            statement.setLong(2, version);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        var kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).as("kill -" + signal + " " + pid).isTrue();
        assertThat(kill.exitValue()).as("kill -" + signal + " " + pid).isZero();
    }
}
