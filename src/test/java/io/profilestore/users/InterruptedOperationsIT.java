package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.codahale.metrics.MetricRegistry;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.change.LockTable;
import io.profilestore.change.Origin;
import io.profilestore.change.WritePathProbe;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.postgres.PostgresUserJournal;
import io.profilestore.testing.Api;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import io.profilestore.wiring.Wiring;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Merges and unmerges a crash interrupted, met by others of their kind and by check-tables before the recovery
 * completes them. The instance's own recovery waits an hour here: the test runs the recovery's rounds itself (each
 * call one round, as every instance runs them), so that it says what each round finds.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class InterruptedOperationsIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.recoveryDelay", "1h")));

    /**
     * Two unmerges interrupted in one tree: A cuts S from T, under the root R (so its batch writes R's row too), and
     * B, recorded after it, cuts X from R: nothing of A's is B's, so B was not refused. A's resume is refused while B
     * is pending ("retry in a few seconds"): the recovery must wait for B, not abandon A, an unmerge its client was
     * told would be completed.
     */
    @Test
    void anInterruptedUnmergeWaitsForAnotherInterruptedOnItsTreeAndIsThenCompleted() throws Exception {
        var api = new Api(APP.getLocalPort());
        var root = newUser(api);
        var target = newUser(api);
        var source = newUser(api);
        var other = newUser(api);
        var pids = Stream.of(root, target, source, other).flatMap(uid -> Stores.pidsOfUser(uid).stream()).toList();
        assertThat(api.merge(target, source).status()).isEqualTo(200);
        assertThat(api.merge(root, target).status()).isEqualTo(200);
        assertThat(api.merge(root, other).status()).isEqualTo(200);

        UserRacesIT.killDuringUnmerge(target, source, "recorded");
        awaitLocksRanOut(List.of(root, target, source, other), pids);
        UserRacesIT.killDuringUnmerge(root, other, "recorded");
        awaitLocksRanOut(List.of(root, target, source, other), pids);
        assertThat(Stores.operationStates(target)).as("S into T, and A").containsExactly("applied", "pending");
        assertThat(Stores.operationStates(root)).as("T into R, X into R, and B").containsExactly("applied", "applied",
                "pending");

        var recovery = recovery();
        recovery.recover();
        assertThat(Stores.operationStates(root)).as("B completed").containsExactly("applied", "applied", "applied");
        assertThat(Stores.operationStates(target)).as("A waits for B, whose rows it writes too")
                .containsExactly("applied", "pending");
        recovery.recover();
        assertThat(Stores.operationStates(target)).as("A completed").containsExactly("applied", "applied");

        assertThat(shownAs(api, source)).as("S, cut from T").isEqualTo(source);
        assertThat(shownAs(api, other)).as("X, cut from R").isEqualTo(other);
        assertThat(shownAs(api, target)).as("T, still R's").isEqualTo(root);
        assertThat(Stores.pidsOfUser(source)).hasSize(1);
        assertThat(Stores.pidsOfUser(other)).hasSize(1);
        assertThat(Stores.pidsOfUser(root)).hasSize(2);
    }

    /**
     * A merge killed after it was recorded, one profile of its batch landed (under the target, the rest not yet):
     * that profile is away from the root of its home's tree (its home, the source, is a root still) until the merge
     * is done. check-tables leaves it to the recovery, as it leaves the users an interrupted operation waits on; moved
     * back to the source, it would undo part of a batch that lands whole.
     */
    @Test
    void checkTablesLeavesAProfileOfAnInterruptedMergeToTheRecovery() throws Exception {
        var api = new Api(APP.getLocalPort());
        var killed = mergeKilledWithOneProfileLanded(api);
        UUID target = killed.target();
        UUID source = killed.source();
        var moving = killed.moving();
        var landed = killed.landed();
        assertThat(api.get(landed).json().path("uid").asText()).isEqualTo(target.toString());

        assertThat(checkTables(api)).as("not a disagreement while the merge is pending")
                .doesNotContain(landed.toString());
        assertThat(api.get(landed).json().path("uid").asText()).as("where the batch put it")
                .isEqualTo(target.toString());
        assertThat(api.get(landed).version()).isEqualTo(2);

        recovery().recover();
        assertThat(Stores.operationStates(target)).containsExactly("applied");
        assertThat(Stores.pidsOfUser(target)).hasSize(3).containsAll(moving);
        assertThat(api.get(landed).version()).as("moved once").isEqualTo(2);
        assertThat(shownAs(api, source)).isEqualTo(target);
    }

    /**
     * A merge killed once recorded, one profile of its batch landed: abandon itself, deciding under its own locks,
     * leaves it (the rest of the batch lands too), whoever asks; written again as they stand, its rows would stay half
     * done. The recovery then completes it.
     */
    @Test
    void abandonLeavesAMergeWhoseBatchIsSeenInPart() throws Exception {
        var api = new Api(APP.getLocalPort());
        var killed = mergeKilledWithOneProfileLanded(api);
        UUID target = killed.target();
        UUID source = killed.source();
        var moving = killed.moving();
        var landed = killed.landed();
        var merge = journal().pending(Duration.ZERO).stream().filter(operation -> operation.target().equals(target))
                .findFirst().orElseThrow();

        assertThat(users().abandon(Origin.system("abandon", UUID.randomUUID()), merge)).as("abandoned").isFalse();
        assertThat(Stores.operationStates(target)).containsExactly("pending");
        assertThat(Stores.pidsOfUser(source)).hasSize(1);

        recovery().recover();
        assertThat(Stores.operationStates(target)).containsExactly("applied");
        assertThat(Stores.pidsOfUser(target)).hasSize(3).containsAll(moving);
    }

    /**
     * A merge killed once recorded, its batch landed nowhere, is abandoned; then its batch lands after all (a
     * coordinator's batchlog replays it at the merge's fence). It must make no version of the profile, and must not
     * give the profile's current version the retention of a replaced one: abandon wrote both above that fence.
     */
    @Test
    void anAbandonedMergesLateBatchMakesNoVersionAndLeavesTheCurrentOneUnexpiring() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = newUser(api);
        var source = newUser(api);
        var pid = Stores.pidsOfUser(source).get(0);
        UserRacesIT.killDuringMerge(target, source, "recorded");
        long fence = Stores.fenceOf("user:" + source);
        awaitLocksRanOut(List.of(target, source), List.of(pid));
        var merge = journal().pending(Duration.ZERO).stream().filter(operation -> operation.target().equals(target))
                .findFirst().orElseThrow();

        assertThat(users().abandon(Origin.system("abandon", UUID.randomUUID()), merge)).as("abandoned").isTrue();
        var cassandra = TestStack.backends().cassandra();
        cassandra.execute(SimpleStatement.newInstance("UPDATE profiles.profile_version SET kind = 'merged', changed_at ="
                + " toTimestamp(now()), uid = ?, data = '{}' WHERE pid = ? AND version = 2", target, pid)
                .setQueryTimestamp(fence));
        cassandra.execute(SimpleStatement.newInstance("UPDATE profiles.profile_version USING TTL 3600 SET kind ="
                + " 'created', changed_at = toTimestamp(now()), uid = ?, data = '{}' WHERE pid = ? AND version = 1",
                source, pid).setQueryTimestamp(fence));

        assertThat(Stores.historyOf(pid).keySet()).as("no version of the abandoned merge").containsExactly(1L);
        var current = cassandra.execute(SimpleStatement.newInstance(
                "SELECT TTL(kind) AS ttl, uid FROM profiles.profile_version WHERE pid = ? AND version = 1", pid)).one();
        assertThat(current.isNull("ttl")).as("the current version keeps no TTL").isTrue();
        assertThat(current.getUuid("uid")).isEqualTo(source);
    }

    /** A merge of a source holding two profiles, killed once recorded, the batch landed on one of them only. */
    private record MergeLandedInPart(UUID target, UUID source, List<UUID> moving, UUID landed) {
    }

    private static MergeLandedInPart mergeKilledWithOneProfileLanded(Api api) throws Exception {
        var target = newUser(api);
        var source = newUser(api);
        assertThat(api.createFor(source, "{\"surname\": \"Орлова\"}").status()).isEqualTo(201);
        var moving = Stores.pidsOfUser(source);
        var landed = moving.get(0);
        UserRacesIT.killDuringMerge(target, source, "recorded");
        ResumedMergesIT.landPartOfTheBatch(target, source, landed, Stores.fenceOf("user:" + source));
        awaitLocksRanOut(List.of(target, source), moving);
        return new MergeLandedInPart(target, source, moving, landed);
    }

    /** The recovery as an instance runs it, without its delay: each call is one round. */
    private static UserOperationRecovery recovery() {
        return new UserOperationRecovery(journal(), users(), Duration.ZERO, Duration.ofSeconds(1));
    }

    /** The service as an instance builds it. */
    private static UserService users() {
        var config = TestStack.configuration();
        var backends = TestStack.backends();
        var metrics = new MetricRegistry();
        var wiring = new Wiring(config, backends, metrics, Api.JSON);
        return wiring.userService(wiring.changes(WritePathProbe.NONE, () -> { }));
    }

    private static PostgresUserJournal journal() {
        return new PostgresUserJournal(TestStack.backends().postgres());
    }

    /** Until the killed instances' locks have run out: before, the next change would only find them busy. */
    private static void awaitLocksRanOut(List<UUID> users, List<UUID> pids) {
        var entities = new ArrayList<String>();
        users.forEach(uid -> entities.add(LockTable.user(uid)));
        pids.forEach(pid -> entities.add(LockTable.profile(pid)));
        await("the killed instance's locks to run out").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100)).until(() -> entities.stream().allMatch(Stores::leaseRanOut));
    }

    private static String checkTables(Api api) {
        var reply = api.wholeJobOnPort(APP.getAdminPort()).send("POST", "/tasks/check-tables?list=true", null, null, Map.of());
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.body();
    }

    /** The user {@code GET /v1/users/{uid}} answers with: the root of its tree. */
    private static UUID shownAs(Api api, UUID uid) {
        return UUID.fromString(api.user(uid).json().path("uid").asText());
    }

    private static UUID newUser(Api api) {
        return UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
    }
}
