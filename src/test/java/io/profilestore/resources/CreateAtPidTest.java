package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.UserRow;
import io.profilestore.testing.ProfileApiOverTwins;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PUT /v1/profiles/{pid} with If-None-Match: *, over the real service and write path: a profile created at the pid
 * asked for (how an import over HTTP keeps a system's ids), refused where the pid has a profile. That it is indexed
 * is in {@link CreateAtPidIT}; what its headers may not say, in {@link RequestValidationTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CreateAtPidTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    @Test
    void aProfileIsCreatedAtThePidAskedForUnderANewUser() {
        var pid = UUID.randomUUID();

        var created = API.createAt(pid, "{\"data\": {\"surname\": \"Импортова\"}}");

        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.etag()).isEqualTo("\"1\"");
        assertThat(created.pid()).isEqualTo(pid);
        assertThat(created.header("Location")).endsWith("/v1/profiles/" + pid);
        var uid = UUID.fromString(created.json().path("uid").asText());
        assertThat(API.stores.rows.findUser(uid)).isPresent();
        assertThat(API.stores.rows.pidsOfUser(uid)).containsExactly(pid);
        assertThat(API.outboxVersions(pid)).containsExactly(1L);
        assertThat(API.get(pid).json()).isEqualTo(created.json());
    }

    @Test
    void aSecondCreateAtThePidIsRefusedAndChangesNothing() {
        var pid = UUID.randomUUID();
        assertThat(API.createAt(pid, "{\"data\": {\"n\": 1}}").status()).isEqualTo(201);
        var before = API.snapshot(pid);

        var again = API.createAt(pid, "{\"data\": {\"n\": 2}}");

        assertProblem(again, 412, "profile-exists");
        assertThat(again.json().path("currentVersions").path(pid.toString()).asLong()).isEqualTo(1);
        assertThat(again.etag()).as("a refusal carries no ETag").isNull();
        assertThat(API.snapshot(pid)).isEqualTo(before);
    }

    @Test
    void aUidNobodyHasIsMadeAndALaterCreateJoinsIt() {
        var uid = UUID.randomUUID();
        var first = UUID.randomUUID();
        var second = UUID.randomUUID();

        assertThat(API.createAt(first, "{\"uid\": \"" + uid + "\", \"data\": {}}").status()).isEqualTo(201);
        assertThat(API.createAt(second, "{\"uid\": \"" + uid + "\", \"data\": {}}").status()).isEqualTo(201);

        assertThat(API.stores.rows.findUser(uid)).get().extracting(UserRow::version).isEqualTo(1L);
        assertThat(API.stores.rows.pidsOfUser(uid)).containsExactlyInAnyOrder(first, second);
    }

    @Test
    void aCreateUnderAMergedUserIsRefused() {
        var merged = new UserRow(UUID.randomUUID(), UUID.randomUUID(), null, 2, Instant.now(), Instant.now(), 1);
        API.stores.rows.store(merged);
        var pid = UUID.randomUUID();

        var refused = API.createAt(pid, "{\"uid\": \"" + merged.uid() + "\", \"data\": {}}");

        assertProblem(refused, 409, "user-merged");
        assertThat(refused.json().path("masterUid").asText()).isEqualTo(merged.masterUid().toString());
        assertProblem(API.get(pid), 404, "profile-not-found");
    }

    static Stream<Arguments> badCreates() {
        return Stream.of(
                Arguments.of("without data", "{}", 400, "invalid-document"),
                Arguments.of("with data an array", "{\"data\": [1]}", 400, "invalid-document"),
                Arguments.of("for a uid that is not a UUID", "{\"uid\": \"nope\", \"data\": {}}", 400, "invalid-field"),
                Arguments.of("with a field it does not have", "{\"pid\": \"" + UUID.randomUUID() + "\", \"data\": {}}",
                        400, "unknown-field"),
                Arguments.of("with a document over 64 KiB", "{\"data\": {\"blob\": \"" + "x".repeat(65_600) + "\"}}",
                        413, "document-too-large"));
    }

    @ParameterizedTest(name = "a create {0}")
    @MethodSource("badCreates")
    void aBadCreateLeavesThePidFree(String name, String body, int status, String type) {
        var pid = UUID.randomUUID();

        assertProblem(API.createAt(pid, body), status, type);

        assertProblem(API.get(pid), 404, "profile-not-found");
        assertThat(API.outboxVersions(pid)).isEmpty();
    }

    @Test
    void aCreateAtAPidThatIsNotAUuidIsA400() {
        var reply = API.send("PUT", "/v1/profiles/not-a-pid", "application/json", "{\"data\": {}}",
                Map.of("If-None-Match", "*"));

        assertProblem(reply, 400, "bad-request");
        assertThat(reply.json().path("detail").asText()).startsWith("pid ");
    }
}
