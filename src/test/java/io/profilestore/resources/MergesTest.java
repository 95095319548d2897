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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Merges over HTTP ({@code POST /v1/users/{uid}/merge}), on the real services over the twins with low limits: what a
 * merge answers and moves, and each refusal (400, 409, 422), which changes nothing. Undoing them: {@link UnmergesTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MergesTest {

    static final int MAX_PROFILES_PER_USER = 4;
    static final int MAX_MERGE_SOURCES = 3;
    static final int MAX_MERGED_USERS = 4;
    static final ProfileApiOverTwins API = new ProfileApiOverTwins(limits());

    private static UserSettings limits() {
        var settings = new UserSettings();
        settings.maxProfilesPerUser = MAX_PROFILES_PER_USER;
        settings.maxMergeSources = MAX_MERGE_SOURCES;
        settings.maxMergedUsers = MAX_MERGED_USERS;
        settings.maxMergeSize = DataSize.kibibytes(2);
        return settings;
    }

    @Test
    void aMergeOfSeveralSourcesMovesTheirProfilesAndAnswersEachOnesNextVersion() {
        var a = API.userWith(1);
        var b = API.userWith(2);
        var c = API.userWith(1);
        var bPids = pidsOf(API.user(b));
        var cPids = pidsOf(API.user(c));

        var merged = API.merge(a, b, c);

        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        var body = merged.json();
        assertThat(UUID.fromString(body.path("mergeId").asText())).isNotNull();
        assertThat(body.path("uid").asText()).isEqualTo(a.toString());
        assertThat(body.path("moved").size()).isEqualTo(2);
        assertThat(body.path("moved").path(b.toString())).extracting(node -> UUID.fromString(node.asText()))
                .containsExactlyInAnyOrderElementsOf(bPids);
        assertThat(body.path("moved").path(c.toString())).extracting(node -> UUID.fromString(node.asText()))
                .containsExactlyElementsOf(cPids);
        assertThat(body.path("versions").size()).as("the merged profiles only").isEqualTo(3);
        for (var pid : List.of(bPids.get(0), bPids.get(1), cPids.get(0))) {
            assertThat(body.path("versions").path(pid.toString()).asLong()).isEqualTo(2);
            var read = API.get(pid);
            assertThat(read.etag()).as("the answered version is the profile's ETag").isEqualTo(etag(2));
            assertThat(read.json().path("uid").asText()).isEqualTo(a.toString());
            assertThat(API.outboxVersions(pid)).as("re-indexed under the target").containsExactly(1L, 2L);
        }
        assertThat(pidsOf(API.user(a))).hasSize(4).containsAll(bPids).containsAll(cPids);
        assertThat(API.stores.rows.pidsOfUser(b)).isEmpty();
    }

    @Test
    void aSourceWithNoProfilesIsMergedMovingNothing() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        assertThat(API.delete(pidsOf(API.user(b)).get(0), etag(1)).status()).isEqualTo(204);

        var merged = API.merge(a, b);

        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        assertThat(merged.json().path("moved")).isEmpty();
        assertThat(merged.json().path("versions")).isEmpty();
        assertThat(API.user(b).json().path("resolvedFrom").asText()).isEqualTo(b.toString());
    }

    @Test
    void aMergeTakesInTheUsersMergedIntoItsSourcesBefore() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        assertThat(API.merge(b, c).status()).isEqualTo(200);

        var merged = API.merge(a, b);

        assertThat(merged.status()).as(merged.body()).isEqualTo(200);
        assertThat(merged.json().path("moved").path(b.toString())).as("c's profile moved from under b").hasSize(2);
        assertThat(API.user(c).json().path("uid").asText()).isEqualTo(a.toString());
    }

    /** What every refused merge must leave as it was: each user's answer. */
    private static void assertRefusedAndUnchanged(Reply refused, int status, String type, UUID... users) {
        var before = Stream.of(users).map(uid -> API.user(uid).body()).toList();
        assertProblem(refused, status, type);
        assertThat(Stream.of(users).map(uid -> API.user(uid).body()).toList()).isEqualTo(before);
    }

    static Stream<Arguments> invalidMerges() {
        return Stream.of(
                Arguments.of("into itself", (Sources) (a, b) -> List.of(a)),
                Arguments.of("a source twice", (Sources) (a, b) -> List.of(b, b)),
                Arguments.of("more sources than users.maxMergeSources", (Sources) (a, b) -> Stream
                        .generate(UUID::randomUUID).limit(MAX_MERGE_SOURCES + 1).toList()),
                Arguments.of("no source", (Sources) (a, b) -> List.of()));
    }

    interface Sources {
        List<UUID> of(UUID target, UUID source);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidMerges")
    void aMergeThatMakesNoSenseIs400InvalidRequest(String name, Sources sources) {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var before = List.of(API.user(a).body(), API.user(b).body());

        var refused = API.merge(a, sources.of(a, b).toArray(UUID[]::new));

        assertProblem(refused, 400, "invalid-request");
        assertThat(List.of(API.user(a).body(), API.user(b).body())).isEqualTo(before);
    }

    /** The fuzzer's finding, kept: a null among the sources was a 500. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("nullSources")
    void aNullAmongTheSourcesIs400InvalidRequest(String sources) {
        var a = API.userWith(1);

        var refused = API.send("POST", "/v1/users/" + a + "/merge", "application/json",
                "{\"sources\": " + sources.replace("B", API.userWith(1).toString()) + "}", Map.of());

        assertProblem(refused, 400, "invalid-request");
    }

    static Stream<String> nullSources() {
        return Stream.of("[null]", "[\"B\", null]");
    }

    @Test
    void sourcesThatAreNotAListOfUidsAre400InvalidField() {
        var a = API.userWith(1);

        for (var sources : List.of("\"" + UUID.randomUUID() + "\"", "[\"Орлова\"]")) {
            assertProblem(API.send("POST", "/v1/users/" + a + "/merge", "application/json",
                    "{\"sources\": " + sources + "}", Map.of()), 400, "invalid-field");
        }
    }

    @Test
    void aSourceNoUserHasIs422UserNotFound() {
        var a = API.userWith(1);
        var b = API.userWith(1);

        assertRefusedAndUnchanged(API.merge(a, b, UUID.randomUUID()), 422, "user-not-found", a, b);
    }

    @Test
    void aMergedSourceIs409Conflict() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        assertThat(API.merge(b, c).status()).isEqualTo(200);

        assertRefusedAndUnchanged(API.merge(a, c), 409, "conflict", a, b);
    }

    @Test
    void aMergedTargetIs409UserMergedNamingItsMaster() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        assertThat(API.merge(a, b).status()).isEqualTo(200);

        var refused = API.merge(b, c);

        assertRefusedAndUnchanged(refused, 409, "user-merged", a, c);
        assertThat(refused.json().path("masterUid").asText()).isEqualTo(a.toString());
    }

    @Test
    void aMergePastMaxProfilesPerUserIs422UserFullWithTheLimit() {
        var a = API.userWith(2);
        var b = API.userWith(2);
        var c = API.userWith(1);

        var refused = API.merge(a, b, c);

        assertRefusedAndUnchanged(refused, 422, "user-full", a, b, c);
        assertThat(refused.json().path("limit").asInt()).isEqualTo(MAX_PROFILES_PER_USER);
        assertThat(API.merge(a, b).status()).as("up to the limit").isEqualTo(200);
    }

    @Test
    void aTreePastMaxMergedUsersIs422MergeTooLargeWithTheLimit() {
        var root = API.userWith(1);
        assertThat(API.merge(root, API.userWith(1), API.userWith(1)).status()).isEqualTo(200);
        var other = API.userWith(1);
        var another = API.userWith(1);

        var refused = API.merge(root, other, another);

        assertRefusedAndUnchanged(refused, 422, "merge-too-large", root, other, another);
        assertThat(refused.json().path("limit").asInt()).isEqualTo(MAX_MERGED_USERS);
        assertThat(refused.json().path("detail").asText()).contains("users.maxMergedUsers");
        assertThat(API.merge(root, other).status()).as("a tree of exactly the limit").isEqualTo(200);
    }

    @Test
    void aMergeRewritingMoreThanMaxMergeSizeOfDocumentsIs422MergeTooLarge() {
        var a = API.userWith(1);
        var big = API.create("{\"pad\": \"" + "x".repeat(3 * 1024) + "\"}");
        var b = UUID.fromString(big.json().path("uid").asText());

        var refused = API.merge(a, b);

        assertRefusedAndUnchanged(refused, 422, "merge-too-large", a, b);
        assertThat(refused.json().path("detail").asText()).contains("users.maxMergeSize");
    }
}
