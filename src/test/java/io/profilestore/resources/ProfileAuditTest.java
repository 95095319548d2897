package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.audit.AuditEntry;
import io.profilestore.audit.RequestIds;
import io.profilestore.change.ProfileRow;
import io.profilestore.testing.ProfileApiOverTwins;
import io.profilestore.twins.InMemoryAuditTrail;
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
 * Who changed and who read a profile, as the audit filter and the write path record it over HTTP: each change's
 * record names its request and gets the status it was answered with; a person's read is recorded with the pid it
 * shows before it is answered, and not answered when it cannot be.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileAuditTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    /** A change sent at a profile of version 1: its answer, given the API and the pid. */
    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("POST /v1/profiles", 201, call((api, pid) -> api.create("{\"n\": 1}"))),
                Arguments.of("PUT /v1/profiles/{pid}", 201, call((api, pid) -> api.createAt(UUID.randomUUID(),
                        "{\"data\": {}}"))),
                Arguments.of("PUT /v1/profiles/{pid}", 200, call((api, pid) -> api.put(pid, etag(1), "{\"n\": 2}"))),
                Arguments.of("PATCH /v1/profiles/{pid}", 200, call((api, pid) -> api.patch(pid, etag(1), "{\"n\": 2}"))),
                Arguments.of("DELETE /v1/profiles/{pid}", 204, call((api, pid) -> api.delete(pid, etag(1)))),
                Arguments.of("POST /v1/profiles:batchCreate", 201, call((api, pid) -> api.batchCreate(
                        "{\"profiles\": [{\"data\": {}}, {\"data\": {}}]}"))),
                Arguments.of("POST /v1/profiles:batchUpdate", 200, call((api, pid) -> api.batchUpdate(
                        "{\"updates\": [{\"pid\": \"" + pid + "\", \"version\": 1, \"data\": {}}]}"))));
    }

    /** Names the lambda's type for the table. */
    static BiFunction<ProfileApiOverTwins, UUID, ProfileApiOverTwins.Reply> call(
            BiFunction<ProfileApiOverTwins, UUID, ProfileApiOverTwins.Reply> call) {
        return call;
    }

    @ParameterizedTest(name = "{0} answered {1}")
    @MethodSource("changes")
    void aChangeIsRecordedAsItsRequestWithTheStatusItWasAnswered(String action, int status,
            BiFunction<ProfileApiOverTwins, UUID, ProfileApiOverTwins.Reply> change) {
        var pid = API.existing("{\"n\": 0}");
        int records = API.stores.audit.records().size();

        var reply = change.apply(API, pid);

        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(API.stores.audit.records()).hasSize(records + 1);
        var record = API.stores.audit.records().get(records);
        assertThat(record.origin().action()).isEqualTo(action);
        assertThat(record.origin().actor()).isEqualTo("anonymous");
        assertThat(record.origin().writer()).as("the request's id").hasToString(reply.header(RequestIds.HEADER));
        assertThat(record.status()).isEqualTo(status);
    }

    @Test
    void theRowsAChangeWritesCarryTheRequestIdTheClientSent() {
        var pid = API.existing("{\"n\": 0}");
        var requestId = UUID.randomUUID();

        var reply = API.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": {\"n\": 1}}",
                Map.of("If-Match", etag(1), RequestIds.HEADER, requestId.toString()));

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.header(RequestIds.HEADER)).isEqualTo(requestId.toString());
        assertThat(API.stores.rows.find(pid)).get().extracting(ProfileRow::writtenBy).isEqualTo(requestId);
        assertThat(API.stores.audit.records()).last().extracting(record -> record.origin().writer()).isEqualTo(requestId);
    }

    @Test
    void aRequestIdThatIsNotAUuidIsReplacedAndTheRowsCarryTheOneAnswered() {
        var pid = API.existing("{\"n\": 0}");

        var reply = API.send("PUT", "/v1/profiles/" + pid, "application/json", "{\"data\": {\"n\": 1}}",
                Map.of("If-Match", etag(1), RequestIds.HEADER, "gateway-7f3a"));

        var answered = UUID.fromString(reply.header(RequestIds.HEADER));
        assertThat(API.stores.rows.find(pid)).get().extracting(ProfileRow::writtenBy).isEqualTo(answered);
    }

    @Test
    void aRefusedChangeIsNotRecordedButItsAnswerHasARequestId() {
        var pid = API.existing("{\"n\": 0}");
        int records = API.stores.audit.records().size();

        var refused = API.put(pid, etag(5), "{\"n\": 1}");

        assertProblem(refused, 412, "stale-version");
        assertThat(refused.header(RequestIds.HEADER)).isNotBlank();
        assertThat(API.stores.audit.records()).hasSize(records);
    }

    /**
     * A change refused because its user was merged names the master in its answer: whoever sends one learns who any uid
     * is now, so a person's is recorded as the look-up it is, with what it was told, before it is answered.
     */
    @Test
    void aChangeRefusedForAMergedUserIsRecordedAsTheLookUpItIs() {
        var master = UUID.fromString(API.create("{\"n\": 1}").json().path("uid").asText());
        var merged = UUID.fromString(API.create("{\"n\": 2}").json().path("uid").asText());
        assertThat(API.merge(master, merged).status()).isEqualTo(200);
        int lookUps = API.lookUps.recorded().size();

        var refused = API.createFor(merged, "{\"n\": 3}");

        assertProblem(refused, 409, "user-merged");
        assertThat(API.lookUps.recorded()).hasSize(lookUps + 1).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("POST /v1/profiles (refused: user-merged)");
            assertThat(entry.request()).contains(merged.toString()).contains(master.toString());
            assertThat(entry.pids()).isEmpty();
            assertThat(entry.status()).isEqualTo(409);
        });
    }

    @Test
    void aPersonsReadIsRecordedWithThePidItShowsAndItsStatus() {
        var pid = API.existing("{\"n\": 0}");

        var read = API.get(pid);

        assertThat(read.status()).isEqualTo(200);
        assertThat(API.lookUps.recorded()).last().satisfies(entry -> {
            assertThat(entry.action()).isEqualTo("GET /v1/profiles/{pid}");
            assertThat(entry.request()).isEqualTo("/v1/profiles/" + pid);
            assertThat(entry.pids()).containsExactly(pid);
            assertThat(entry.status()).isEqualTo(200);
            assertThat(entry.requestId()).hasToString(read.header(RequestIds.HEADER));
        });
        assertThat(API.machineSearches.recorded()).isEmpty();
    }

    @Test
    void aReadOfAPidNoProfileHasShowsNoneAndIsNotRecorded() {
        int lookUps = API.lookUps.recorded().size();

        assertProblem(API.get(UUID.randomUUID()), 404, "profile-not-found");

        assertThat(API.lookUps.recorded()).hasSize(lookUps);
    }

    @Test
    void aReadThatCannotBeRecordedIs503AndTellsNothingOfTheProfile() {
        var pid = API.existing("{\"n\": 0}");
        API.lookUps.refuseNext();

        var refused = API.get(pid);

        assertProblem(refused, 503, "audit-unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.etag()).isNull();
        assertThat(refused.body()).doesNotContain(pid.toString());
        assertThat(API.lookUps.recorded()).extracting(AuditEntry::pids).doesNotContain(List.of(pid));
    }

    @Test
    void aChangeIsRecordedWithThePidsItTouched() {
        var pids = Stream.generate(() -> API.existing("{}")).limit(2).toList();

        API.batchUpdate("{\"updates\": [{\"pid\": \"" + pids.get(0) + "\", \"version\": 1, \"data\": {}}, {\"pid\": \""
                + pids.get(1) + "\", \"version\": 1, \"data\": {}}]}");

        assertThat(API.stores.audit.records()).last().extracting(InMemoryAuditTrail.Record::pids)
                .asInstanceOf(InstanceOfAssertFactories.list(UUID.class)).containsExactlyInAnyOrderElementsOf(pids);
    }
}
