package io.profilestore.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A batch update whose writer died after recording it leaves its row in {@code unsettled_change}; the next change of
 * one of its profiles settles it. Profiles never changed again would keep that row for ever, and every lock taken
 * reads the table. So a row left long enough is settled by the sweep as that next change would settle it: its batch,
 * landed nowhere, is written over so that it can no longer land; landed in part, it is waited for. And the table has
 * an index fit for what every lock asks of it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UnsettledSweepIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void aBatchLeftByAWriterThatDiedIsCompletedOnceOldThoughItsProfilesAreNeverChangedAgain() throws Exception {
        var api = new Api(APP.getLocalPort());
        var a = api.create("{\"surname\": \"Орлова\", \"n\": 0}").pid();
        var b = api.create("{\"surname\": \"Орлова\", \"n\": 0}").pid();

        var holder = killDuringBatchUpdate(a, b);
        long fence = fenceOf(holder);
        makeOld(holder);

        await("the sweep to complete the batch left behind").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> !recorded(holder));
        for (var pid : new UUID[] {a, b}) {
            var now = api.get(pid);
            assertThat(now.version()).as("%s: the batch stands everywhere", pid).isEqualTo(2);
            assertThat(now.json().path("data").path("n").asInt()).isEqualTo(1);
        }
        for (var pid : new UUID[] {a, b}) {
            assertThat(TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                    "SELECT writetime(data) FROM profiles.profile WHERE pid = ?", pid)).one().getLong(0))
                    .as("%s: written again above the batch's fence, where its replay loses", pid).isGreaterThan(fence);
        }
    }

    /** Recorded by a version before completions (no rows kept to complete it), it is waited for as then. */
    @Test
    void aBatchOfAnOlderVersionLeftSeenInPartIsWaitedForUntilItLandedWhole() throws Exception {
        var api = new Api(APP.getLocalPort());
        var a = api.create("{\"surname\": \"Орлова\", \"n\": 0}").pid();
        var b = api.create("{\"surname\": \"Орлова\", \"n\": 0}").pid();

        var holder = killDuringBatchUpdate(a, b);
        Stores.recordedByAnOlderVersion(holder, true);
        long fence = fenceOf(holder);
        land(a, fence);
        makeOld(holder);

        await("the sweep to find the batch landed in part").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200)).until(() -> foundInPart(holder));
        assertThat(recorded(holder)).as("kept while the rest is on its way").isTrue();
        land(b, fence);
        await("the sweep to find it landed whole").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> !recorded(holder));
        for (var pid : new UUID[] {a, b}) {
            assertThat(api.get(pid).version()).as("%s: the batch stands everywhere", pid).isEqualTo(2);
        }
    }

    /** Every lock taken asks which batches left on its profiles may still land ({@code pids && ?}): a GIN index. */
    @Test
    void theBatchesOnAProfileAreFoundThroughAnIndex() throws SQLException {
        try (var connection = TestStack.backends().postgres().getConnection()) {
            connection.setAutoCommit(false);
            try (var off = connection.prepareStatement("SET LOCAL enable_seqscan = off")) {
                off.execute();
            }
            var plan = new StringBuilder();
            try (var explain = connection.prepareStatement(
                    "EXPLAIN SELECT holder FROM unsettled_change WHERE pids && ?::uuid[] AND holder <> ?")) {
                explain.setArray(1, connection.createArrayOf("uuid", new Object[] {UUID.randomUUID()}));
                explain.setObject(2, UUID.randomUUID());
                try (var rows = explain.executeQuery()) {
                    while (rows.next()) {
                        plan.append(rows.getString(1)).append('\n');
                    }
                }
            }
            connection.rollback();
            assertThat(plan.toString()).contains("Index Scan on unsettled_change_pids");
        }
    }

    /** Kills an instance holding a batch update of both profiles once it is recorded; returns its holder. */
    private static UUID killDuringBatchUpdate(UUID a, UUID b) throws Exception {
        try (var doomed = ServiceProcess.start(null, Map.of("PROFILE_STORE_TEST_HOLD_AT", "recorded",
                "PROFILE_STORE_LOCK_LEASE", "3s"))) {
            CompletableFuture.runAsync(() -> doomed.api().batchUpdate("{\"updates\": [" + update(a) + ", " + update(b)
                    + "]}"));
            doomed.awaitLine("HELD recorded", Duration.ofSeconds(30));
            doomed.kill();
        }
        return holderOf(a);
    }

    private static String update(UUID pid) {
        return "{\"pid\": \"" + pid + "\", \"version\": 1, \"data\": {\"surname\": \"Орлова\", \"n\": 1}}";
    }

    /** The batch's write of one profile, landing now at the batch's fence (a coordinator's batchlog replaying it). */
    private static void land(UUID pid, long fence) {
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "UPDATE profiles.profile SET version = 2, data = '{\"surname\":\"Орлова\",\"n\":1}' WHERE pid = ?", pid)
                .setQueryTimestamp(fence));
    }

    private static UUID holderOf(UUID pid) throws SQLException {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "SELECT holder FROM unsettled_change WHERE pids @> ARRAY[?::uuid]")) {
            statement.setObject(1, pid);
            try (var rows = statement.executeQuery()) {
                assertThat(rows.next()).as("the killed batch's row").isTrue();
                return rows.getObject(1, UUID.class);
            }
        }
    }

    private static long fenceOf(UUID holder) throws SQLException {
        return select("SELECT fence FROM unsettled_change WHERE holder = ?", holder);
    }

    /** As old as a row left by a writer gone for an hour. */
    private static void makeOld(UUID holder) throws SQLException {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(
                        "UPDATE unsettled_change SET recorded_at = recorded_at - interval '1 hour' WHERE holder = ?")) {
            statement.setObject(1, holder);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    private static boolean recorded(UUID holder) throws SQLException {
        return select("SELECT count(*) FROM unsettled_change WHERE holder = ?", holder) == 1;
    }

    private static boolean foundInPart(UUID holder) throws SQLException {
        return select("SELECT count(*) FROM unsettled_change WHERE holder = ? AND partial_since IS NOT NULL",
                holder) == 1;
    }

    private static long select(String sql, UUID holder) throws SQLException {
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement(sql)) {
            statement.setObject(1, holder);
            try (var rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
