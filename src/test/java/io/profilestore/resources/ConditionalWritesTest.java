package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.LockTable;
import io.profilestore.testing.ProfileApiOverTwins;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every change of one profile (PUT, PATCH, DELETE) needs the version its caller read, and each refuses alike, over
 * the real service and write path: each case is sent at a profile at version 1, which must read the same afterwards,
 * with nothing announced to the indexer and no audit record of a change.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ConditionalWritesTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    /** What the case does to the profile before the change is sent. */
    enum Before { NOTHING, LOCKED_BY_ANOTHER, ERASED }

    /** A case of each method: name, If-Match, path (null: the profile's), before, status, type, member naming the pid. */
    static Stream<Arguments> refusedChanges() {
        var cases = Stream.of(
                Arguments.of("without If-Match", null, null, Before.NOTHING, 428, "precondition-required", null),
                Arguments.of("with If-Match: *", "*", null, Before.NOTHING, 428, "precondition-required", null),
                Arguments.of("with a stale version", "\"7\"", null, Before.NOTHING, 412, "stale-version",
                        "currentVersions"),
                Arguments.of("with the current version's weak ETag", "W/\"1\"", null, Before.NOTHING, 412,
                        "stale-version", "currentVersions"),
                Arguments.of("with a version not in quotes", "1", null, Before.NOTHING, 400, "bad-request", null),
                Arguments.of("with two ETags", "\"1\", \"2\"", null, Before.NOTHING, 400, "bad-request", null),
                Arguments.of("while another request holds its lock", "\"1\"", null, Before.LOCKED_BY_ANOTHER, 409,
                        "locked", "locked"),
                Arguments.of("of a pid that is not a UUID", "\"1\"", "/v1/profiles/12345", Before.NOTHING, 400,
                        "bad-request", null),
                Arguments.of("of a pid no profile has", "\"1\"", "/v1/profiles/" + UUID.randomUUID(), Before.NOTHING,
                        404, "profile-not-found", null),
                Arguments.of("of an erased profile", "\"1\"", null, Before.ERASED, 404, "profile-not-found", "pids"));
        return cases.flatMap(c -> Stream.of("PUT", "PATCH", "DELETE").map(method -> {
            var row = new ArrayList<Object>(List.of(method));
            row.addAll(Arrays.asList(c.get()));
            row.set(1, method + " " + row.get(1));
            return Arguments.of(row.toArray());
        }));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusedChanges")
    void aRefusedChangeOfOneProfileChangesNothing(String method, String name, String ifMatch,
            String path, Before before, int status, String type, String member) {
        var pid = API.existing("{\"surname\": \"Прежнева\"}");
        switch (before) {
            case LOCKED_BY_ANOTHER -> API.stores.locks.heldByAnother(LockTable.profile(pid));
            case ERASED -> assertThat(API.delete(pid, "\"1\"").status()).isEqualTo(204);
            case NOTHING -> { }
        }
        var snapshot = API.snapshot(pid);
        int records = API.stores.audit.records().size();

        var reply = send(method, path == null ? "/v1/profiles/" + pid : path, ifMatch, null);

        assertProblem(reply, status, type);
        assertThat(reply.etag()).as("a refusal carries no ETag").isNull();
        if (member != null) {
            assertThat(reply.json().path(member).toString()).as("the problem names the profile").contains(pid.toString());
        }
        assertThat(API.snapshot(pid)).isEqualTo(snapshot);
        assertThat(API.stores.audit.records()).as("no change was recorded").hasSize(records);
        if (before != Before.LOCKED_BY_ANOTHER) {
            assertThat(API.stores.locks.isFree(LockTable.profile(pid))).as("no lock is left behind").isTrue();
        }
    }

    static Stream<Arguments> createsWhereNoneCanBe() {
        return Stream.of(
                Arguments.of("PUT", 412, "profile-exists"),
                Arguments.of("PATCH", 400, "bad-request"),
                Arguments.of("DELETE", 400, "bad-request"));
    }

    /** If-None-Match: * asks for a create: where a profile stands, PUT is refused as one; PATCH and DELETE cannot create. */
    @ParameterizedTest(name = "{0} with If-None-Match: *")
    @MethodSource("createsWhereNoneCanBe")
    void ifNoneMatchAtAnExistingProfileIsRefusedAndChangesNothing(String method, int status, String type) {
        var pid = API.existing("{\"surname\": \"Прежнева\"}");
        var snapshot = API.snapshot(pid);

        var reply = send(method, "/v1/profiles/" + pid, null, "*");

        assertProblem(reply, status, type);
        assertThat(API.snapshot(pid)).isEqualTo(snapshot);
    }

    private static ProfileApiOverTwins.Reply send(String method, String path, String ifMatch, String ifNoneMatch) {
        var headers = new HashMap<String, String>();
        if (ifMatch != null) {
            headers.put("If-Match", ifMatch);
        }
        if (ifNoneMatch != null) {
            headers.put("If-None-Match", ifNoneMatch);
        }
        return switch (method) {
            case "PUT" -> API.send(method, path, "application/json", "{\"data\": {\"surname\": \"Новая\"}}",
                    Map.copyOf(headers));
            case "PATCH" -> API.send(method, path, ProfileResource.MERGE_PATCH, "{\"surname\": \"Новая\"}",
                    Map.copyOf(headers));
            default -> API.send(method, path, null, null, Map.copyOf(headers));
        };
    }
}
