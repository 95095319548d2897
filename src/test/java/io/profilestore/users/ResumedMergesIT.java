package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A merge interrupted by a crash is resumed by the recovery with what its users hold then, which may be more
 * than when it was recorded: the limits hold for it too. One that would break them is abandoned, not written; and
 * should its batch land late (a coordinator's batchlog replays it at the merge's fence), it changes nothing. One
 * that goes on journals what it moved: not a profile that surely left before its write, but one its first write
 * moved before it left, at the version that write gave it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ResumedMergesIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("users.recoveryDelay", "10s"),
                    ConfigOverride.config("users.maxProfilesPerUser", "4")));

    @Test
    void aResumedMergeThatWouldHoldTooManyProfilesIsAbandoned() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 2);
        var source = userWith(api, 2);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        // before the recovery takes it: the source gains a profile, and the merge would now give the target five
        await("the killed merge's locks to run out, and the source to take a profile").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.createFor(source, "{\"surname\": \"Орлова\"}").status() == 201);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        await("the recovery to finish the interrupted merge").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200)).until(() -> !Stores.operationStates(target).contains("pending"));
        assertThat(Stores.operationStates(target)).containsExactly("abandoned");
        assertThat(Stores.pidsOfUser(target)).hasSize(2);
        assertThat(Stores.pidsOfUser(source)).hasSize(3);
        assertThat(api.user(source).json().path("uid").asText()).as("the source is its own user still")
                .isEqualTo(source.toString());
    }

    @Test
    void anAbandonedMergeWhoseBatchLandsLateChangesNothing() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 2);
        var source = userWith(api, 2);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        long fence = Stores.fenceOf("user:" + source); // the killed merge's, which its batch would be written at
        await("the killed merge's locks to run out, and the source to take a profile").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.createFor(source, "{\"surname\": \"Орлова\"}").status() == 201);
        await("the recovery to abandon the merge").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(200))
                .until(() -> Stores.operationStates(target).equals(List.of("abandoned")));

        // the batch lands now, late, as a replay would: the source's row as the merge wrote it, at the merge's fence
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "UPDATE profiles.persons SET master_uid = ?, merged_into = ? WHERE uid = ?", target, target, source)
                .setQueryTimestamp(fence));

        assertThat(api.user(source).json().path("uid").asText()).as("the source is its own user still")
                .isEqualTo(source.toString());
        assertThat(Stores.pidsOfUser(source)).hasSize(3);
    }

    /**
     * A logged batch seen in part lands whole in the end (its batchlog replays the rest). The killed merge's batch has
     * moved one profile when the recovery comes, and the source took another meanwhile, so that the target would now
     * hold five (the limit is four): the merge stands and is completed past the limit. Abandoned, it would be frozen
     * half done: that profile under the target, the source a root with the others.
     */
    @Test
    void aResumedMergeWhoseBatchIsSeenInPartIsCompletedPastTheLimit() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 2);
        var source = userWith(api, 2);
        var journaled = Stores.pidsOfUser(source);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        landPartOfTheBatch(target, source, journaled.get(0));
        var taken = new AtomicReference<UUID>();
        await("the killed merge's locks to run out, and the source to take a profile").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    var created = api.createFor(source, "{\"surname\": \"Орлова\"}");
                    if (created.status() == 201) {
                        taken.set(created.pid());
                    }
                    return created.status() == 201;
                });
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(api.user(source).json().path("uid").asText()).as("the source is the target's")
                .isEqualTo(target.toString());
        assertThat(Stores.pidsOfUser(source)).isEmpty();
        assertThat(Stores.pidsOfUser(target)).as("past the limit").hasSize(5).containsAll(journaled).contains(taken.get());
        assertThat(api.get(journaled.get(0)).version()).as("the version the landed part gave it").isEqualTo(2);
    }

    @Test
    void aResumedMergeCountsOnlyWhatItStillMoves() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 2);
        var source = userWith(api, 2);
        var erased = Stores.pidsOfUser(source).get(0);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        // before the recovery: the source gains a profile and loses one the merge had journaled; it still moves two
        await("the killed merge's locks to run out, and the source to take a profile").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.createFor(source, "{\"surname\": \"Орлова\"}").status() == 201);
        assertThat(api.delete(erased, Api.etag(1)).status()).isEqualTo(204);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        await("the recovery to finish the interrupted merge").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200)).until(() -> !Stores.operationStates(target).contains("pending"));
        assertThat(Stores.operationStates(target)).as("four profiles: within the limit").containsExactly("applied");
        assertThat(Stores.pidsOfUser(target)).hasSize(4);
        assertThat(Stores.pidsOfUser(source)).isEmpty();
    }

    @Test
    void aResumedMergeDoesNotListAProfileMovedByHandBeforeItsWrite() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var elsewhere = userWith(api, 1);
        var movedByHand = Stores.pidsOfUser(source).get(0);
        var stays = Stores.pidsOfUser(source).get(1);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        // before the recovery, and with the killed merge's batch never sent: a profile it journaled is moved by hand
        await("the killed merge's locks to run out, and a profile to be moved by hand").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.move(movedByHand, Api.etag(1), elsewhere).status() == 200);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(Stores.pidsOfUser(target)).as("the target's own and the one the merge moved").contains(stays)
                .hasSize(2);
        assertThat(Stores.pidsOfUser(elsewhere)).as("the one moved by hand stays where it was moved").contains(movedByHand);
        assertThat(movedFrom(api, target, source)).as("what the merge moved: not the profile moved by hand before it")
                .containsExactly(stays.toString());
    }

    @Test
    void aResumedMergeStillListsAProfileItsFirstWriteMovedBeforeItWasMovedOnByHand() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var elsewhere = userWith(api, 1);
        var movedOn = Stores.pidsOfUser(source).get(0);
        var stays = Stores.pidsOfUser(source).get(1);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        landPartOfTheBatch(target, source, movedOn);
        // then, before the recovery, it is moved on by hand from the target
        await("the killed merge's locks to run out, and the profile to be moved on by hand")
                .atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.move(movedOn, Api.etag(2), elsewhere).status() == 200);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(Stores.pidsOfUser(elsewhere)).contains(movedOn);
        assertThat(movedFrom(api, target, source)).as("the merge moved both: one before it was moved on by hand")
                .containsExactlyInAnyOrder(movedOn.toString(), stays.toString());
    }

    @Test
    void aResumedMergeJournalsTheVersionItsFirstWriteGaveAProfileChangedSince() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var landed = Stores.pidsOfUser(source).get(0);
        var stays = Stores.pidsOfUser(source).get(1);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        landPartOfTheBatch(target, source, landed);
        // then, before the recovery, the profile is changed where the landed batch put it: version 3 is the PUT's
        await("the killed merge's locks to run out, and the profile to be replaced").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.put(landed, Api.etag(2), "{\"surname\": \"Орлова\", \"note\": \"after\"}").status() == 200);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(api.get(landed).version()).as("the resume writes it again as it stands").isEqualTo(3);
        assertThat(Stores.journaledVersions(target)).as("the versions the merge gave: 2, not the PUT's 3")
                .containsEntry(landed, 2L).containsEntry(stays, 2L);
    }

    /**
     * Main's fault suite (2026-12-05): a merge recorded and not confirmed gives up its locks, its source takes a
     * profile while its row does not show the merge, and then the merge's batch lands late, whole (a coordinator
     * replaying it from its batchlog). The recovery finds every source the target's already; the profile the source
     * took meanwhile must still move under the target, the root of its home's tree, and be listed as the merge's.
     */
    @Test
    void aMergeWhoseBatchLandedLateStillMovesAProfileItsSourceTookMeanwhile() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var journaled = Stores.pidsOfUser(source);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        long fence = Stores.fenceOf("user:" + source); // the killed merge's, before the create's locks raise it
        var taken = new AtomicReference<UUID>();
        await("the killed merge's locks to run out, and the source to take a profile").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    var created = api.createFor(source, "{\"surname\": \"Орлова\"}");
                    if (created.status() == 201) {
                        taken.set(created.pid());
                    }
                    return created.status() == 201;
                });
        journaled.forEach(pid -> landPartOfTheBatch(target, source, pid, fence));
        landTheUsersRows(target, source, fence);
        assertThat(api.user(source).json().path("uid").asText()).as("the batch landed: the source is the target's")
                .isEqualTo(target.toString());
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(api.get(taken.get()).json().path("uid").asText()).as("the profile the source took meanwhile")
                .isEqualTo(target.toString());
        assertThat(Stores.pidsOfUser(source)).isEmpty();
        assertThat(Stores.pidsOfUser(target)).hasSize(4).contains(taken.get()).containsAll(journaled);
        assertThat(movedFrom(api, target, source)).as("what the merge moved, the profile taken meanwhile too")
                .containsExactlyInAnyOrder(journaled.get(0).toString(), journaled.get(1).toString(),
                        taken.get().toString());
    }

    /**
     * A profile the killed merge journaled is changed (its whole row written at a newer time) before the merge's
     * batch lands late: the batch's move of that row loses, its links' changes do not, so the row names the source
     * and the source lists nothing. The recovery must still move it under the target.
     */
    @Test
    void aMergeWhoseBatchLandedLateMovesAJournaledProfileWhoseRowAChangeKept() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var journaled = Stores.pidsOfUser(source);
        var changed = journaled.get(0);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        long fence = Stores.fenceOf("user:" + source);
        await("the killed merge's locks to run out, and a profile it journaled to be replaced")
                .atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.put(changed, Api.etag(1), "{\"surname\": \"Орлова\", \"note\": \"after\"}")
                        .status() == 200);
        journaled.forEach(pid -> landPartOfTheBatch(target, source, pid, fence));
        landTheUsersRows(target, source, fence);
        assertThat(api.get(changed).json().path("uid").asText()).as("the replace's row outlived the batch's")
                .isEqualTo(source.toString());
        assertThat(Stores.pidsOfUser(source)).as("the replace's own link outlived the batch's unlink, as its row did")
                .containsExactly(changed);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        awaitApplied(target);
        assertThat(api.get(changed).json().path("uid").asText()).isEqualTo(target.toString());
        assertThat(api.get(changed).version()).as("the replace's 2, and one more for the move").isEqualTo(3);
        assertThat(Stores.pidsOfUser(target)).hasSize(3).containsAll(journaled);
    }

    /**
     * The same for an unmerge: a profile it journaled is changed before its batch lands late, so the row stays
     * under the root the unmerge took it from. The recovery must still bring it back to its home's user.
     */
    @Test
    void anUnmergeWhoseBatchLandedLateBringsBackAJournaledProfileWhoseRowAChangeKept() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 2);
        var own = Stores.pidsOfUser(source);
        var changed = own.get(0);
        assertThat(api.merge(target, source).status()).isEqualTo(200);

        UserRacesIT.killDuringUnmerge(target, source, "recorded");
        long fence = Stores.fenceOf("user:" + source);
        await("the killed unmerge's locks to run out, and a profile it journaled to be replaced")
                .atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.put(changed, Api.etag(2), "{\"surname\": \"Орлова\", \"note\": \"after\"}")
                        .status() == 200);
        // the unmerge's batch lands now, late: the profiles back under the source, the source a root, at its fence
        var cassandra = TestStack.backends().cassandra();
        for (var pid : own) {
            cassandra.execute(SimpleStatement.newInstance("UPDATE profiles.profile SET uid = ?, version = 3 WHERE pid = ?",
                    source, pid).setQueryTimestamp(fence));
            cassandra.execute(SimpleStatement.newInstance("INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)",
                    source, pid).setQueryTimestamp(fence));
            cassandra.execute(SimpleStatement.newInstance("DELETE FROM profiles.uid_pid WHERE uid = ? AND pid = ?",
                    target, pid).setQueryTimestamp(fence));
        }
        cassandra.execute(SimpleStatement.newInstance(
                "UPDATE profiles.persons SET master_uid = null, merged_into = null WHERE uid = ?", source)
                .setQueryTimestamp(fence));
        assertThat(api.get(changed).json().path("uid").asText()).as("the replace's row outlived the batch's")
                .isEqualTo(target.toString());
        assertThat(Stores.operationStates(target)).as("the merge, and the unmerge taken before the recovery")
                .containsExactlyInAnyOrder("applied", "pending");

        await("the recovery to finish the interrupted unmerge").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200)).until(() -> !Stores.operationStates(target).contains("pending"));
        assertThat(Stores.operationStates(target)).containsExactly("applied", "applied");
        assertThat(api.get(changed).json().path("uid").asText()).as("back under its home's user")
                .isEqualTo(source.toString());
        assertThat(Stores.pidsOfUser(source)).containsExactlyInAnyOrderElementsOf(own);
        assertThat(Stores.pidsOfUser(target)).hasSize(1);
    }

    /** The rest of the killed merge's batch: the source's row, the target's child, at the merge's fence. */
    private static void landTheUsersRows(UUID target, UUID source, long fence) {
        TestStack.backends().cassandra().execute(SimpleStatement.newInstance(
                "UPDATE profiles.persons SET master_uid = ?, merged_into = ? WHERE uid = ?", target, target, source)
                .setQueryTimestamp(fence));
    }

    /**
     * Part of the killed merge's batch lands, as a logged batch is seen partition by partition: one profile under the
     * target at the version the merge gave it (2), at the merge's fence; its users' rows not yet.
     */
    private static void landPartOfTheBatch(UUID target, UUID source, UUID pid) {
        landPartOfTheBatch(target, source, pid, Stores.fenceOf("user:" + source));
    }

    static void landPartOfTheBatch(UUID target, UUID source, UUID pid, long fence) {
        var cassandra = TestStack.backends().cassandra();
        cassandra.execute(SimpleStatement.newInstance("UPDATE profiles.profile SET uid = ?, version = 2 WHERE pid = ?",
                target, pid).setQueryTimestamp(fence));
        cassandra.execute(SimpleStatement.newInstance("INSERT INTO profiles.uid_pid (uid, pid) VALUES (?, ?)",
                target, pid).setQueryTimestamp(fence));
        cassandra.execute(SimpleStatement.newInstance("DELETE FROM profiles.uid_pid WHERE uid = ? AND pid = ?",
                source, pid).setQueryTimestamp(fence));
    }

    private static void awaitApplied(UUID target) {
        await("the recovery to finish the interrupted merge").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200)).until(() -> !Stores.operationStates(target).contains("pending"));
        assertThat(Stores.operationStates(target)).containsExactly("applied");
    }

    /** The pids the merge into {@code target} (its only one) moved from {@code source}, as its merge history lists them. */
    private static List<String> movedFrom(Api api, UUID target, UUID source) {
        var history = api.send("GET", "/v1/users/" + target + "/merges", null, null, Map.of());
        assertThat(history.status()).as(history.body()).isEqualTo(200);
        var merges = history.json().path("merges");
        assertThat(merges).hasSize(1);
        var moved = new ArrayList<String>();
        merges.get(0).path("moved").path(source.toString()).forEach(pid -> moved.add(pid.asText()));
        return moved;
    }

    private static UUID userWith(Api api, int profiles) {
        var uid = UUID.fromString(api.create("{\"surname\": \"Орлова\"}").json().path("uid").asText());
        for (int i = 1; i < profiles; i++) {
            assertThat(api.createFor(uid, "{\"surname\": \"Орлова\"}").status()).isEqualTo(201);
        }
        assertThat(Stores.pidsOfUser(uid)).hasSize(profiles);
        return uid;
    }
}
