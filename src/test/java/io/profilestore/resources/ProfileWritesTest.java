package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.UserRow;
import io.profilestore.testing.ProfileApiOverTwins;
import java.time.Instant;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Creates, replaces, patches and erasures of one profile over HTTP, on the real service and write path over the
 * twins: what each answers (status, ETag, Location, body) and what the stores hold after it. Their refusals for a
 * missing or stale version are in {@link ConditionalWritesTest}, those for a bad body in {@link ProfileInputTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileWritesTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    @Test
    void aCreateWithoutUidAnswers201WithItsLocationAndETagUnderANewUser() {
        var created = API.create("{\"surname\": \"Иванов\", \"phones\": [\"79123456789\"]}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.etag()).isEqualTo("\"1\"");
        var body = created.json();
        var pid = UUID.fromString(body.path("pid").asText());
        var uid = UUID.fromString(body.path("uid").asText());
        assertThat(created.header("Location")).endsWith("/v1/profiles/" + pid);
        assertThat(body.path("version").asLong()).isEqualTo(1);
        assertThat(body.path("data").toString()).isEqualTo("{\"surname\":\"Иванов\",\"phones\":[\"79123456789\"]}");
        assertThat(body.path("createdAt")).isEqualTo(body.path("updatedAt"));
        assertThat(API.stores.rows.findUser(uid)).get().extracting(UserRow::version).isEqualTo(1L);
        assertThat(API.stores.rows.pidsOfUser(uid)).containsExactly(pid);
        assertThat(API.outboxVersions(pid)).containsExactly(1L);

        var read = API.get(pid);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.etag()).isEqualTo("\"1\"");
        assertThat(read.json()).isEqualTo(body);
    }

    @Test
    void aCreateWithAUidJoinsThatUser() {
        var first = API.create("{\"n\": 1}").json();
        var uid = UUID.fromString(first.path("uid").asText());

        var second = API.createFor(uid, "{\"n\": 2}");

        assertThat(second.status()).as(second.body()).isEqualTo(201);
        assertThat(second.json().path("uid").asText()).isEqualTo(uid.toString());
        assertThat(API.stores.rows.pidsOfUser(uid))
                .containsExactlyInAnyOrder(UUID.fromString(first.path("pid").asText()), second.pid());
    }

    @Test
    void aCreateForAUidNobodyHasIs422AndCreatesNothing() {
        var uid = UUID.randomUUID();
        int announced = API.stores.outbox.records().size();

        assertProblem(API.createFor(uid, "{\"n\": 1}"), 422, "user-not-found");

        assertThat(API.stores.rows.pidsOfUser(uid)).isEmpty();
        assertThat(API.stores.rows.findUser(uid)).isEmpty();
        assertThat(API.stores.outbox.records()).hasSize(announced);
    }

    @Test
    void aCreateForAUserMergedIntoAnotherIs409NamingTheMaster() {
        var master = UUID.randomUUID();
        var merged = new UserRow(UUID.randomUUID(), master, null, 2, Instant.now(), Instant.now(), 1);
        API.stores.rows.store(merged);

        var refused = API.createFor(merged.uid(), "{\"n\": 1}");

        assertProblem(refused, 409, "user-merged");
        assertThat(refused.json().path("masterUid").asText()).isEqualTo(master.toString());
        assertThat(API.stores.rows.pidsOfUser(merged.uid())).isEmpty();
    }

    @Test
    void aUserHoldingTheMostProfilesAllowedIsRefusedTheNextWith422AndTheLimit() {
        var uid = UUID.fromString(API.create("{}").json().path("uid").asText());
        var now = Instant.now();
        IntStream.range(1, ProfileApiOverTwins.MAX_PROFILES_PER_USER - 1).forEach(i -> API.stores.rows.store(
                new ProfileRow(UUID.randomUUID(), uid, uid, 1, "{}", now, now, 1)));
        assertThat(API.createFor(uid, "{\"last\": true}").status()).as("the last one allowed").isEqualTo(201);

        var refused = API.createFor(uid, "{\"one\": \"more\"}");

        assertProblem(refused, 422, "user-full");
        assertThat(refused.json().path("limit").asInt()).isEqualTo(ProfileApiOverTwins.MAX_PROFILES_PER_USER);
        assertThat(API.stores.rows.pidsOfUser(uid)).hasSize(ProfileApiOverTwins.MAX_PROFILES_PER_USER);
    }

    /** Numbers as the document has them: no rounding through a double, no lost digits, no lost trailing zeros. */
    @ParameterizedTest
    @ValueSource(strings = {"0.1", "1.10", "12345678901234567890.123456789", "123456789012345678901234567890",
            "-9223372036854775809"})
    void aNumberIsKeptExactlyAsSent(String number) {
        var pid = API.existing("{\"n\": " + number + "}");

        assertThat(API.get(pid).json().path("data").toString()).isEqualTo("{\"n\":" + number + "}");
    }

    /** A merge patch is read by Jackson and applied by Jakarta JSON Processing: neither may round a number. */
    @ParameterizedTest
    @ValueSource(strings = {"0.1", "1.10", "12345678901234567890.123456789", "123456789012345678901234567890",
            "-9223372036854775809"})
    void aNumberAPatchSetsIsKeptExactlyBesideTheOnesItLeaves(String number) {
        var pid = API.existing("{\"kept\": " + number + "}");

        var patched = API.patch(pid, etag(1), "{\"set\": " + number + "}");

        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(API.get(pid).json().path("data").toString())
                .isEqualTo("{\"kept\":" + number + ",\"set\":" + number + "}");
    }

    @Test
    void aReplaceWithTheCurrentVersionAnswersTheNextKeepingItsUserAndCreation() {
        var created = API.create("{\"a\": 1}").json();
        var pid = UUID.fromString(created.path("pid").asText());

        var replaced = API.put(pid, etag(1), "{\"b\": 2}");

        assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
        assertThat(replaced.etag()).isEqualTo("\"2\"");
        var body = replaced.json();
        assertThat(body.path("version").asLong()).isEqualTo(2);
        assertThat(body.path("data").toString()).as("replaced, not merged").isEqualTo("{\"b\":2}");
        assertThat(body.path("uid")).isEqualTo(created.path("uid"));
        assertThat(body.path("createdAt")).isEqualTo(created.path("createdAt"));
        assertThat(API.get(pid).json()).isEqualTo(body);
        assertThat(API.outboxVersions(pid)).containsExactly(1L, 2L);
    }

    @Test
    void aPatchMergesAsRfc7396SaysAndAnswersTheNextVersion() {
        var pid = API.existing("{\"surname\": \"Петров\", \"address\": {\"city\": \"Tver\", \"zip\": \"170000\"},"
                + " \"tags\": [1, 2]}");

        var patched = API.patch(pid, etag(1), "{\"address\": {\"zip\": null, \"street\": \"Lenina\"}, \"tags\": [3],"
                + " \"email\": \"p@example.com\"}");

        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(patched.etag()).isEqualTo("\"2\"");
        var data = patched.json().path("data");
        assertThat(data.path("surname").asText()).isEqualTo("Петров");
        assertThat(data.path("address").path("city").asText()).isEqualTo("Tver");
        assertThat(data.path("address").has("zip")).isFalse();
        assertThat(data.path("address").path("street").asText()).isEqualTo("Lenina");
        assertThat(data.path("tags").toString()).isEqualTo("[3]");
        assertThat(data.path("email").asText()).isEqualTo("p@example.com");
        assertThat(API.get(pid).json().path("data")).isEqualTo(data);
        assertThat(API.outboxVersions(pid)).containsExactly(1L, 2L);
    }

    @Test
    void successiveChangesEachNameTheVersionTheLastAnswered() {
        var pid = API.existing("{\"n\": 0}");

        var second = API.put(pid, etag(1), "{\"n\": 1}");
        var third = API.patch(pid, second.etag(), "{\"n\": 2}");
        var erased = API.delete(pid, third.etag());

        assertThat(third.etag()).isEqualTo("\"3\"");
        assertThat(erased.status()).isEqualTo(204);
        assertThat(API.outboxVersions(pid)).as("the erasure is announced as the next version").containsExactly(1L, 2L,
                3L, 4L);
    }

    @Test
    void anErasureAnswers204WithoutABodyAndTheProfileLeavesItsUser() {
        var created = API.create("{\"a\": 1}").json();
        var pid = UUID.fromString(created.path("pid").asText());
        var uid = UUID.fromString(created.path("uid").asText());

        var erased = API.delete(pid, etag(1));

        assertThat(erased.status()).isEqualTo(204);
        assertThat(erased.body()).isEmpty();
        assertThat(erased.etag()).isNull();
        var read = API.get(pid);
        assertProblem(read, 404, "profile-not-found");
        assertThat(read.json().path("pids").toString()).contains(pid.toString());
        assertThat(API.stores.rows.pidsOfUser(uid)).isEmpty();
    }
}
