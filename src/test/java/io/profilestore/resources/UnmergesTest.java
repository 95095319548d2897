package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static io.profilestore.testing.ProfileApiOverTwins.pidsOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.dropwizard.util.DataSize;
import io.profilestore.users.UserSettings;
import io.profilestore.testing.ProfileApiOverTwins;
import io.profilestore.testing.ProfileApiOverTwins.Reply;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Unmerges over HTTP ({@code POST /v1/users/{uid}/unmerge}), by source and by merge id, on the real services over the
 * twins: what each gives back and answers, what it leaves where it is (and says so), and each refusal.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UnmergesTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins(limits());

    private static UserSettings limits() {
        var settings = new UserSettings();
        settings.maxMergeSize = DataSize.kibibytes(2);
        return settings;
    }

    private static UUID mergeId(Reply merged) {
        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        return UUID.fromString(merged.json().path("mergeId").asText());
    }

    @Test
    void anUnmergeBySourceGivesItBackExactlyItsProfilesAtTheirNextVersions() {
        var a = API.userWith(1);
        var b = API.userWith(2);
        var c = API.userWith(1);
        var aPids = pidsOf(API.user(a));
        var bPids = pidsOf(API.user(b));
        var cPids = pidsOf(API.user(c));
        var mergeId = mergeId(API.merge(a, b, c));

        var unmerged = API.unmerge(a, b);

        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);
        var body = unmerged.json();
        assertThat(body.path("mergeId").asText()).isEqualTo(mergeId.toString());
        assertThat(body.path("unmergeId").asText()).isNotEqualTo(mergeId.toString()).isNotBlank();
        assertThat(body.path("uid").asText()).isEqualTo(a.toString());
        assertThat(body.path("restored").size()).isEqualTo(1);
        assertThat(body.path("restored").path(b.toString())).extracting(node -> UUID.fromString(node.asText()))
                .containsExactlyInAnyOrderElementsOf(bPids);
        assertThat(body.path("skipped")).isEmpty();
        for (var pid : bPids) {
            assertThat(body.path("versions").path(pid.toString()).asLong()).isEqualTo(3);
            assertThat(API.get(pid).etag()).isEqualTo(etag(3));
            assertThat(API.put(pid, etag(3), "{}").status()).as("the answered version is the next If-Match")
                    .isEqualTo(200);
        }
        var ownB = API.user(b);
        assertThat(ownB.json().path("uid").asText()).isEqualTo(b.toString());
        assertThat(ownB.json().has("resolvedFrom")).isFalse();
        assertThat(pidsOf(ownB)).containsExactlyInAnyOrderElementsOf(bPids);
        assertThat(API.user(c).json().path("uid").asText()).as("c stays merged").isEqualTo(a.toString());
        assertThat(pidsOf(API.user(a))).containsExactlyInAnyOrder(aPids.get(0), cPids.get(0));
    }

    @Test
    void anUnmergeByMergeIdGivesBackEverySourceNotUndoneYet() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        var cPid = pidsOf(API.user(c)).get(0);
        var mergeId = mergeId(API.merge(a, b, c));
        assertThat(API.unmerge(a, b).status()).isEqualTo(200);

        var rest = API.unmergeById(a, mergeId);

        assertThat(rest.status()).as(rest.body()).isEqualTo(200);
        assertThat(rest.json().path("mergeId").asText()).isEqualTo(mergeId.toString());
        assertThat(rest.json().path("restored").size()).as("c alone; b is back already").isEqualTo(1);
        assertThat(rest.json().path("restored").path(c.toString()).get(0).asText()).isEqualTo(cPid.toString());
        assertThat(API.user(c).json().has("resolvedFrom")).isFalse();
        assertThat(pidsOf(API.user(a))).hasSize(1);
    }

    /** A user taken in by a merge, then its target merged on: the unmerge takes it out of the tree it is in now. */
    @Test
    void anUnmergeAfterTheTargetWasMergedOnTakesTheSourceOutOfTheRootsTree() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        var bPid = pidsOf(API.user(b)).get(0);
        mergeId(API.merge(a, b));
        mergeId(API.merge(c, a));
        var rootBefore = API.user(c).etag();

        var unmerged = API.unmerge(a, b);

        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);
        assertThat(unmerged.json().path("restored").path(b.toString()).get(0).asText()).isEqualTo(bPid.toString());
        assertThat(pidsOf(API.user(b))).containsExactly(bPid);
        assertThat(API.user(a).json().path("uid").asText()).as("a stays c's").isEqualTo(c.toString());
        assertThat(pidsOf(API.user(c))).hasSize(2).doesNotContain(bPid);
        assertThat(API.user(c).etag()).as("the root's row is written too").isNotEqualTo(rootBefore);
    }

    @Test
    void anUnmergeLeavesAProfileErasedOrMovedByHandSinceWhereItIsAndSaysWhere() {
        var a = API.userWith(1);
        var b = API.userWith(3);
        var d = API.userWith(1);
        var bPids = pidsOf(API.user(b));
        mergeId(API.merge(a, b));
        assertThat(API.delete(bPids.get(0), etag(2)).status()).isEqualTo(204);
        assertThat(API.move(bPids.get(1), etag(2), d).status()).isEqualTo(200);

        var unmerged = API.unmerge(a, b);

        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);
        assertThat(unmerged.json().path("restored").path(b.toString())).extracting(node -> node.asText())
                .containsExactly(bPids.get(2).toString());
        var skipped = unmerged.json().path("skipped");
        assertThat(skipped).hasSize(2);
        for (var each : skipped) {
            if (each.path("pid").asText().equals(bPids.get(0).toString())) {
                assertThat(each.path("reason").asText()).isEqualTo("erased since the merge");
                assertThat(each.has("uid")).as("an erased profile is nowhere").isFalse();
            } else {
                assertThat(each.path("pid").asText()).isEqualTo(bPids.get(1).toString());
                assertThat(each.path("reason").asText()).isEqualTo("moved to user " + d + " since the merge");
                assertThat(each.path("uid").asText()).isEqualTo(d.toString());
            }
        }
        assertThat(unmerged.json().path("versions").size()).isEqualTo(1);
        assertThat(pidsOf(API.user(b))).containsExactly(bPids.get(2));
        assertThat(pidsOf(API.user(d))).contains(bPids.get(1));
    }

    /** A profile merged in and then kept by hand under the user it was merged into: its home is there now. */
    @Test
    void anUnmergeLeavesAProfileMovedByHandToTheTargetWithIt() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var bPid = pidsOf(API.user(b)).get(0);
        mergeId(API.merge(a, b));
        assertThat(API.move(bPid, etag(2), a).status()).isEqualTo(200);

        var unmerged = API.unmerge(a, b);

        assertThat(unmerged.status()).as(unmerged.body()).isEqualTo(200);
        assertThat(unmerged.json().path("restored")).isEmpty();
        assertThat(unmerged.json().path("skipped").get(0).path("uid").asText()).isEqualTo(a.toString());
        assertThat(pidsOf(API.user(a))).contains(bPid);
        assertThat(API.user(b).json().path("profiles")).isEmpty();
    }

    @Test
    void anUnmergeRewritingMoreThanMaxMergeSizeIs422MergeTooLargeAndChangesNothing() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var bPid = pidsOf(API.user(b)).get(0);
        mergeId(API.merge(a, b));
        assertThat(API.put(bPid, etag(2), "{\"pad\": \"" + "x".repeat(3 * 1024) + "\"}").status()).isEqualTo(200);
        var before = API.user(a).body();

        var refused = API.unmerge(a, b);

        assertProblem(refused, 422, "merge-too-large");
        assertThat(refused.json().path("detail").asText()).contains("users.maxMergeSize");
        assertThat(API.user(a).body()).isEqualTo(before);
        assertThat(API.user(b).json().path("resolvedFrom").asText()).as("b stays merged").isEqualTo(b.toString());
    }

    /** A merge of b into a, what each case does first, and what it asks to undo: no merge there is to undo. */
    static Stream<Arguments> nothingToUndo() {
        Consumer<Merged> nothing = m -> { };
        Consumer<Merged> sourceUndone = m -> assertThat(API.unmerge(m.a(), m.b()).status()).isEqualTo(200);
        Consumer<Merged> mergeUndone = m -> assertThat(API.unmergeById(m.a(), m.mergeId()).status()).isEqualTo(200);
        return Stream.of(
                Arguments.of("a source never merged", nothing, (Undo) m -> API.unmerge(m.a(), API.userWith(1))),
                Arguments.of("a source merged into another user", nothing, (Undo) m -> API.unmerge(m.b(), m.a())),
                Arguments.of("the target unmerged from itself", nothing, (Undo) m -> API.unmerge(m.a(), m.a())),
                Arguments.of("a merge id nobody has", nothing, (Undo) m -> API.unmergeById(m.a(), UUID.randomUUID())),
                Arguments.of("a merge id asked of its source", nothing, (Undo) m -> API.unmergeById(m.b(), m.mergeId())),
                Arguments.of("a uid no user has", nothing, (Undo) m -> API.unmerge(UUID.randomUUID(), m.b())),
                Arguments.of("a source undone already", sourceUndone, (Undo) m -> API.unmerge(m.a(), m.b())),
                Arguments.of("a merge undone already", mergeUndone, (Undo) m -> API.unmergeById(m.a(), m.mergeId())));
    }

    record Merged(UUID a, UUID b, UUID mergeId) {
    }

    interface Undo extends Function<Merged, Reply> {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nothingToUndo")
    void anUnmergeOfNoMergeToUndoIs404MergeNotFound(String name, Consumer<Merged> first, Undo unmerge) {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var merged = new Merged(a, b, mergeId(API.merge(a, b)));
        first.accept(merged);
        var before = List.of(API.merges(a).body(), API.user(b).body());

        var refused = unmerge.apply(merged);

        assertProblem(refused, 404, "merge-not-found");
        assertThat(List.of(API.merges(a).body(), API.user(b).body())).as("nothing undone").isEqualTo(before);
    }

    static Stream<Arguments> badUnmerges() {
        return Stream.of(
                Arguments.of("both source and mergeId", "{\"source\": \"S\", \"mergeId\": \"M\"}", 400, "invalid-request"),
                Arguments.of("neither source nor mergeId", "{}", 400, "invalid-request"),
                Arguments.of("source not a uid", "{\"source\": \"Орлова\"}", 400, "invalid-field"),
                Arguments.of("an unknown field", "{\"source\": \"S\", \"sources\": [\"S\"]}", 400, "unknown-field"),
                Arguments.of("a body over the route's 4 KiB", "{\"source\": \"S\", \"pad\": \"" + "x".repeat(4096) + "\"}",
                        413, "body-too-large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badUnmerges")
    void anUnmergeAskedWronglyIsRefusedAndUndoesNothing(String name, String body, int status, String type) {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var mergeId = mergeId(API.merge(a, b));

        var refused = API.send("POST", "/v1/users/" + a + "/unmerge", "application/json",
                body.replace("S", b.toString()).replace("M", mergeId.toString()), Map.of());

        assertProblem(refused, status, type);
        assertThat(API.user(b).json().path("uid").asText()).as("b stays merged").isEqualTo(a.toString());
        assertThat(API.merges(a).json().path("merges").get(0).path("undone")).isEmpty();
    }
}
