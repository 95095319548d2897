package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static io.profilestore.testing.ProfileApiOverTwins.pidsOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.users.UserSettings;
import io.profilestore.testing.ProfileApiOverTwins;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Moving a profile to another user by hand ({@code PUT /v1/profiles/{pid}/user}) over HTTP, on the real services over
 * the twins: the answer and its ETag, what the users list after it, and every refusal, which changes nothing. The
 * checks that need no service (a missing If-Match or uid, a bad pid) are in {@link RequestValidationTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UserMovesTest {

    static final int MAX_PROFILES_PER_USER = 3;
    static final ProfileApiOverTwins API = new ProfileApiOverTwins(limits());

    private static UserSettings limits() {
        var settings = new UserSettings();
        settings.maxProfilesPerUser = MAX_PROFILES_PER_USER;
        return settings;
    }

    /**
     * The user's first profile, the one made with {@code {"n": 0}}: an answer lists profiles made in one millisecond by
     * pid, not in the order they were made.
     */
    private static UUID firstPid(UUID uid) {
        for (var profile : API.user(uid).json().path("profiles")) {
            if (profile.path("data").path("n").asInt(-1) == 0) {
                return UUID.fromString(profile.path("pid").asText());
            }
        }
        throw new AssertionError("user " + uid + " has no profile made first");
    }

    @Test
    void aMoveAnswersTheProfileAtItsNextVersionUnderItsNewUser() {
        var a = API.userWith(2);
        var b = API.userWith(1);
        var pid = firstPid(a);

        var moved = API.move(pid, etag(1), b);

        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        assertThat(moved.etag()).isEqualTo(etag(2));
        assertThat(moved.json().path("pid").asText()).isEqualTo(pid.toString());
        assertThat(moved.json().path("uid").asText()).isEqualTo(b.toString());
        assertThat(moved.json().path("version").asLong()).isEqualTo(2);
        assertThat(moved.json().path("data").path("n").asInt()).as("the document goes along as it was").isZero();
        assertThat(pidsOf(API.user(a))).hasSize(1).doesNotContain(pid);
        assertThat(pidsOf(API.user(b))).hasSize(2).contains(pid);
        assertThat(API.get(pid).json()).isEqualTo(moved.json());
        assertThat(API.outboxVersions(pid)).as("re-indexed under its new user").containsExactly(1L, 2L);
    }

    @Test
    void theMovesETagIsTheNextIfMatchAndTheOneBeforeItIsStale() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var pid = firstPid(a);
        var moved = API.move(pid, etag(1), b);

        var stale = API.move(pid, etag(1), a);

        assertProblem(stale, 412, "stale-version");
        assertThat(stale.json().path("currentVersions").path(pid.toString()).asLong()).isEqualTo(2);
        var back = API.move(pid, moved.etag(), a);
        assertThat(back.status()).as(back.body()).isEqualTo(200);
        assertThat(back.etag()).isEqualTo(etag(3));
    }

    @Test
    void aMoveToTheUserAProfileBelongsToAlreadyChangesNothing() {
        var a = API.userWith(1);
        var pid = firstPid(a);

        var same = API.move(pid, etag(1), a);

        assertThat(same.status()).as(same.body()).isEqualTo(200);
        assertThat(same.etag()).as("no new version").isEqualTo(etag(1));
        assertThat(API.outboxVersions(pid)).containsExactly(1L);
    }

    /** A profile merged in, moved by hand to the user it is under: that user is its home now, so it has a new version. */
    @Test
    void aMoveOfAMergedInProfileToTheUserItIsUnderMakesItItsHome() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var pid = firstPid(b);
        assertThat(API.merge(a, b).status()).isEqualTo(200);

        var kept = API.move(pid, etag(2), a);

        assertThat(kept.status()).as(kept.body()).isEqualTo(200);
        assertThat(kept.etag()).isEqualTo(etag(3));
        assertThat(API.stores.rows.find(pid)).get().satisfies(row -> assertThat(row.home()).isEqualTo(a));
    }

    /** A refused move: its problem, and the profile and both users as they were. */
    private static void assertRefusedAndUnchanged(UUID pid, UUID from, UUID to, int status, String type) {
        var before = API.snapshot(pid);
        var target = API.user(to);

        var refused = API.move(pid, etag(1), to);

        assertProblem(refused, status, type);
        assertThat(API.snapshot(pid)).isEqualTo(before);
        assertThat(pidsOf(API.user(from))).contains(pid);
        if (target.status() == 200) {
            assertThat(API.user(to).body()).isEqualTo(target.body());
        }
    }

    @Test
    void aMoveToAUidNoUserHasIs422UserNotFound() {
        var a = API.userWith(1);

        assertRefusedAndUnchanged(firstPid(a), a, UUID.randomUUID(), 422, "user-not-found");
    }

    @Test
    void aMoveToAMergedUserIs409UserMergedNamingItsMaster() {
        var a = API.userWith(1);
        var b = API.userWith(1);
        var c = API.userWith(1);
        assertThat(API.merge(b, c).status()).isEqualTo(200);

        assertRefusedAndUnchanged(firstPid(a), a, c, 409, "user-merged");
        assertThat(API.move(firstPid(a), etag(1), c).json().path("masterUid").asText()).isEqualTo(b.toString());
    }

    @Test
    void aMoveToAFullUserIs422UserFullWithTheLimit() {
        var a = API.userWith(1);
        var full = API.userWith(MAX_PROFILES_PER_USER);

        assertRefusedAndUnchanged(firstPid(a), a, full, 422, "user-full");
        assertThat(API.move(firstPid(a), etag(1), full).json().path("limit").asInt()).isEqualTo(MAX_PROFILES_PER_USER);
    }

    @Test
    void aMoveOfAnErasedProfileIs404ProfileNotFoundWithItsPid() {
        var a = API.userWith(2);
        var b = API.userWith(1);
        var pid = firstPid(a);
        assertThat(API.delete(pid, etag(1)).status()).isEqualTo(204);

        var refused = API.move(pid, etag(1), b);

        assertProblem(refused, 404, "profile-not-found");
        assertThat(refused.json().path("pids").get(0).asText()).isEqualTo(pid.toString());
        assertThat(pidsOf(API.user(b))).doesNotContain(pid);
    }

    static Stream<Arguments> badMoves() {
        return Stream.of(
                Arguments.of("uid not a UUID", "application/json", "{\"uid\": \"Орлова\"}", 400, "invalid-field"),
                Arguments.of("uid a number", "application/json", "{\"uid\": 7}", 400, "invalid-field"),
                Arguments.of("an unknown field", "application/json",
                        "{\"uid\": \"" + UUID.randomUUID() + "\", \"home\": true}", 400, "unknown-field"),
                Arguments.of("not JSON", "application/json", "{\"uid\": ", 400, "malformed-json"),
                Arguments.of("a body over the route's 4 KiB", "application/json",
                        "{\"uid\": \"" + UUID.randomUUID() + "\", \"pad\": \"" + "x".repeat(4 * 1024) + "\"}", 413,
                        "body-too-large"),
                Arguments.of("text/plain", "text/plain", "{\"uid\": \"" + UUID.randomUUID() + "\"}", 415,
                        "unsupported-media-type"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badMoves")
    void aMoveWithABadBodyIsRefusedAndChangesNothing(String name, String contentType, String body, int status,
            String type) {
        var a = API.userWith(1);
        var pid = firstPid(a);
        var before = API.snapshot(pid);

        var refused = API.send("PUT", "/v1/profiles/" + pid + "/user", contentType, body, Map.of("If-Match", etag(1)));

        assertProblem(refused, status, type);
        assertThat(API.snapshot(pid)).isEqualTo(before);
    }
}
