package io.profilestore.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A merge interrupted by a crash is resumed by the recovery with what its users hold then, which may be more
 * than when it was recorded: the limits hold for it too. One that would break them is abandoned, not written; and
 * should its batch land late (a coordinator's batchlog replays it at the merge's fence), it changes nothing. One
 * that goes on journals only what it moves then.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ResumedMergeLimitsIT {

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
    void aResumedMergeListsOnlyTheProfilesItMoved() throws Exception {
        var api = new Api(APP.getLocalPort());
        var target = userWith(api, 1);
        var source = userWith(api, 3);
        var elsewhere = userWith(api, 1);
        var sourcePids = Stores.pidsOfUser(source);
        var movedByHand = sourcePids.get(0);
        var erased = sourcePids.get(1);
        var stays = sourcePids.get(2);

        UserRacesIT.killDuringMerge(target, source, "recorded");
        // before the recovery, two profiles the merge journaled leave the source: one moved by hand, one erased
        await("the killed merge's locks to run out, and a profile to be moved by hand").atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.move(movedByHand, Api.etag(1), elsewhere).status() == 200);
        assertThat(api.delete(erased, Api.etag(1)).status()).isEqualTo(204);
        assertThat(Stores.operationStates(target)).as("taken before the recovery").containsExactly("pending");

        await("the recovery to finish the interrupted merge").atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(200)).until(() -> !Stores.operationStates(target).contains("pending"));
        assertThat(Stores.operationStates(target)).containsExactly("applied");
        assertThat(Stores.pidsOfUser(target)).as("the target's own and the one the merge moved").contains(stays)
                .hasSize(2);
        assertThat(Stores.pidsOfUser(elsewhere)).as("the one moved by hand stays where it was moved").contains(movedByHand);

        var history = api.send("GET", "/v1/users/" + target + "/merges", null, null, Map.of());
        assertThat(history.status()).as(history.body()).isEqualTo(200);
        var merges = history.json().path("merges");
        assertThat(merges).hasSize(1);
        assertThat(merges.get(0).path("moved").path(source.toString())).extracting(JsonNode::asText)
                .as("what the merge moved: not what left the source before it was resumed")
                .containsExactly(stays.toString());
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
