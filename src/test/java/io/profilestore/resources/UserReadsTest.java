package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static io.profilestore.testing.ProfileApiOverTwins.pidsOf;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.audit.AuditEntry;
import io.profilestore.testing.ProfileApiOverTwins;
import io.profilestore.testing.ProfileApiOverTwins.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The users' reads over HTTP, on the real services over the twins: a user with its profiles ({@code GET
 * /v1/users/{uid}}), a merged one answered as its root, and the merge history ({@code GET /v1/users/{uid}/merges}),
 * each recorded as a person's look-up. The writes are in {@link UserMovesTest}, {@link MergesTest} and
 * {@link UnmergesTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UserReadsTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    @Test
    void aUserIsAnsweredWithItsProfilesAndItsVersionAsItsETag() {
        var uid = API.userWith(3);

        var read = API.user(uid);

        assertThat(read.status()).as(read.body()).isEqualTo(200);
        var body = read.json();
        assertThat(body.path("uid").asText()).isEqualTo(uid.toString());
        assertThat(body.has("resolvedFrom")).isFalse();
        assertThat(body.has("masterUid")).isFalse();
        assertThat(read.etag()).isEqualTo(etag(body.path("version").asLong()));
        assertThat(pidsOf(read)).containsExactlyInAnyOrderElementsOf(API.stores.rows.pidsOfUser(uid));
        assertThat(body.path("profiles")).hasSize(3).allSatisfy(profile -> {
            assertThat(profile.path("uid").asText()).isEqualTo(uid.toString());
            assertThat(profile.path("version").asLong()).isEqualTo(1);
            assertThat(profile.path("data").has("n")).isTrue();
        });
    }

    @Test
    void aMergeRaisesTheTargetsVersionSoItsETagChanges() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var before = API.user(a).etag();

        assertThat(API.merge(a, b).status()).isEqualTo(200);

        var after = API.user(a).etag();
        assertThat(after).isNotEqualTo(before);
        assertThat(API.user(b).etag()).as("read through b, the root's").isEqualTo(after);
    }

    @Test
    void aUserWhoseProfilesWereErasedIsAnsweredWithNone() {
        var uid = API.userWith(1);
        var pid = pidsOf(API.user(uid)).get(0);
        assertThat(API.delete(pid, etag(1)).status()).isEqualTo(204);

        var read = API.user(uid);

        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(read.json().path("profiles")).isEmpty();
    }

    @Test
    void aMergedUserIsAnsweredAsTheRootOfItsTreeSayingWhichUidWasAsked() {
        var a = API.userWith(1);
        var b = API.userWith(2);
        var c = API.userWith(1);
        assertThat(API.merge(a, b).status()).isEqualTo(200);
        assertThat(API.merge(c, a).status()).isEqualTo(200);
        var root = API.user(c);

        var throughB = API.user(b);

        assertThat(throughB.status()).as(throughB.body()).isEqualTo(200);
        assertThat(throughB.json().path("uid").asText()).isEqualTo(c.toString());
        assertThat(throughB.json().path("resolvedFrom").asText()).isEqualTo(b.toString());
        assertThat(throughB.etag()).isEqualTo(root.etag());
        assertThat(pidsOf(throughB)).hasSize(4).containsExactlyInAnyOrderElementsOf(pidsOf(root));
        assertThat(root.json().has("resolvedFrom")).as("the root asked for itself").isFalse();
    }

    static Stream<Arguments> reads() {
        return Stream.of(
                Arguments.of("the user", (BiFunction<ProfileApiOverTwins, Object, Reply>) ProfileApiOverTwins::user),
                Arguments.of("its merges", (BiFunction<ProfileApiOverTwins, Object, Reply>) ProfileApiOverTwins::merges));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reads")
    void aUidNoUserHasIs404UserNotFoundAndNoLookUpIsRecorded(String name, BiFunction<ProfileApiOverTwins, Object, Reply> read) {
        int lookUps = API.lookUps.recorded().size();

        var refused = read.apply(API, UUID.randomUUID());

        assertProblem(refused, 404, "user-not-found");
        assertThat(API.lookUps.recorded()).hasSize(lookUps);
    }

    static Stream<Arguments> badUids() {
        String uid = UUID.randomUUID().toString();
        return Stream.of(
                Arguments.of("GET", "/v1/users/not-a-uid", null),
                Arguments.of("GET", "/v1/users/" + uid.replace("-", "") + "/merges", null),
                Arguments.of("POST", "/v1/users/" + uid + "x/merge", "{\"sources\": [\"" + uid + "\"]}"),
                Arguments.of("POST", "/v1/users/12345/unmerge", "{\"source\": \"" + uid + "\"}"));
    }

    /** A malformed uid in the path is a 400 naming it, not Jersey's bare 404: each route parses its own. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("badUids")
    void aMalformedUidInThePathIsABadRequestNamingIt(String method, String path, String body) {
        var refused = API.send(method, path, body == null ? null : "application/json", body, Map.of());

        assertProblem(refused, 400, "bad-request");
        assertThat(refused.json().path("detail").asText()).startsWith("uid must be a UUID");
    }

    @Test
    void aUserNeverMergedHasAnEmptyHistoryListingItsOwnProfiles() {
        var uid = API.userWith(2);

        var history = API.merges(uid);

        assertThat(history.status()).as(history.body()).isEqualTo(200);
        assertThat(history.json().path("uid").asText()).isEqualTo(uid.toString());
        assertThat(uuids(history.json().path("pids"))).containsExactlyElementsOf(
                API.stores.rows.pidsOfUser(uid).stream().sorted().toList());
        assertThat(history.json().path("merges")).isEmpty();
    }

    /** Every member of the answer the docs name, with its value: what the console and clients read. */
    @Test
    void theHistoryListsEachMergeWithItsSourcesStateTimeAndWhatMovedAndCameBack() {
        var a = API.userWith(1);
        var b = API.userWith(2);
        var c = API.userWith(1);
        var bPids = List.copyOf(API.stores.rows.pidsOfUser(b));
        var merged = API.merge(a, b, c).json();
        var unmerged = API.unmerge(a, b).json();

        var history = API.merges(c).json();

        assertThat(history.path("uid").asText()).as("the root of c's tree").isEqualTo(a.toString());
        assertThat(uuids(history.path("pids"))).hasSize(2).doesNotContainAnyElementsOf(bPids);
        var merge = history.path("merges").get(0);
        assertThat(merge.path("mergeId").asText()).isEqualTo(merged.path("mergeId").asText());
        assertThat(merge.path("target").asText()).isEqualTo(a.toString());
        assertThat(uuids(merge.path("sources"))).containsExactly(b, c);
        assertThat(merge.path("state").asText()).isEqualTo("applied");
        assertThat(Instant.parse(merge.path("recordedAt").asText())).isBeforeOrEqualTo(Instant.now());
        assertThat(uuids(merge.path("moved").path(b.toString()))).containsExactlyInAnyOrderElementsOf(bPids);
        assertThat(merge.path("moved").path(c.toString())).hasSize(1);
        assertThat(merge.path("undone")).hasSize(1);
        var undo = merge.path("undone").get(0);
        assertThat(undo.path("source").asText()).isEqualTo(b.toString());
        assertThat(undo.path("unmergeId").asText()).isEqualTo(unmerged.path("unmergeId").asText());
        assertThat(undo.path("state").asText()).isEqualTo("applied");
        assertThat(undo.path("recordedAt").isTextual()).isTrue();
        assertThat(uuids(undo.path("restored"))).containsExactlyInAnyOrderElementsOf(bPids);
    }

    @Test
    void aSourceUnmergedStillSeesTheMergeItWasTakenInByAndUndoneFrom() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var mergeId = API.merge(a, b).json().path("mergeId").asText();
        assertThat(API.unmerge(a, b).status()).isEqualTo(200);

        var history = API.merges(b).json();

        assertThat(history.path("uid").asText()).as("a root again").isEqualTo(b.toString());
        assertThat(history.path("merges")).hasSize(1);
        assertThat(history.path("merges").get(0).path("mergeId").asText()).isEqualTo(mergeId);
        assertThat(history.path("merges").get(0).path("undone").get(0).path("source").asText()).isEqualTo(b.toString());
    }

    @Test
    void theHistoryListsTheNewestMergeFirst() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        var first = API.merge(b, a).json().path("mergeId").asText();
        var second = API.merge(c, b).json().path("mergeId").asText();

        var merges = API.merges(a).json().path("merges");

        assertThat(merges).extracting(merge -> merge.path("mergeId").asText()).containsExactly(second, first);
    }

    @Test
    void aWholeMergeUndoneByItsIdShowsWhatWentBackToEachSourceUnderOneUnmerge() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        var back = Map.of(b.toString(), pidsOf(API.user(b)).get(0).toString(), c.toString(),
                pidsOf(API.user(c)).get(0).toString());
        var merged = API.merge(a, b, c);
        var unmerged = API.unmergeById(a, UUID.fromString(merged.json().path("mergeId").asText()));
        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);

        var undone = API.merges(a).json().path("merges").get(0).path("undone");

        assertThat(undone).hasSize(2);
        for (var undo : undone) {
            assertThat(undo.path("unmergeId").asText()).isEqualTo(unmerged.json().path("unmergeId").asText());
            assertThat(undo.path("restored")).extracting(JsonNode::asText).as("what went back to its source")
                    .containsExactly(back.get(undo.path("source").asText()));
        }
    }

    @Test
    void aReadOfAMergedUserIsRecordedAsALookUpOfEveryProfileItShows() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        assertThat(API.merge(a, b).status()).isEqualTo(200);

        var read = API.user(b);

        assertThat(API.lookUps.recorded()).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("GET /v1/users/{uid}");
            assertThat(entry.request()).isEqualTo("/v1/users/" + b);
            assertThat(entry.pids()).containsExactlyInAnyOrderElementsOf(pidsOf(read));
            assertThat(entry.status()).isEqualTo(200);
        });
    }

    /** The history names profiles that left the tree since (restored by an unmerge): the reader saw those too. */
    @Test
    void aReadOfAHistoryIsRecordedWithThePidsItNamesThoseUnmergedSinceToo() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var aPid = pidsOf(API.user(a)).get(0);
        var bPid = pidsOf(API.user(b)).get(0);
        assertThat(API.merge(a, b).status()).isEqualTo(200);
        assertThat(API.unmerge(a, b).status()).isEqualTo(200);

        API.merges(a);

        assertThat(API.lookUps.recorded()).last().extracting(AuditEntry::pids)
                .asInstanceOf(InstanceOfAssertFactories.list(UUID.class)).containsExactlyInAnyOrder(aPid, bPid);
    }

    private static List<UUID> uuids(JsonNode array) {
        var ids = new ArrayList<UUID>();
        array.forEach(id -> ids.add(UUID.fromString(id.asText())));
        return ids;
    }
}
