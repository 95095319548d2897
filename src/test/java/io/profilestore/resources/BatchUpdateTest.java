package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.LockTable;
import io.profilestore.testing.ProfileApiOverTwins;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * POST /v1/profiles:batchUpdate over the real service and write path: every profile by one version, or none. The
 * refusals of updates without a pid or a version are in {@link RequestValidationTest}; a hundred documents of full
 * size, which Cassandra takes in one batch, in {@link ProfileApiIT}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class BatchUpdateTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    static List<UUID> profiles(int count) {
        return IntStream.range(0, count).mapToObj(i -> API.existing("{\"n\": " + i + "}")).toList();
    }

    static String batch(List<UUID> pids, ToLongFunction<UUID> version, String data) {
        return pids.stream()
                .map(pid -> "{\"pid\": \"" + pid + "\", \"version\": " + version.applyAsLong(pid) + ", \"data\": " + data + "}")
                .collect(Collectors.joining(", ", "{\"updates\": [", "]}"));
    }

    static List<ProfileApiOverTwins.Snapshot> snapshots(List<UUID> pids) {
        return pids.stream().map(API::snapshot).toList();
    }

    @Test
    void everyProfileIsAnsweredAtItsNextVersionInTheOrderSent() {
        var pids = profiles(3);

        var reply = API.batchUpdate(batch(pids, pid -> 1, "{\"batch\": \"b1\"}"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        var updated = reply.json().path("updated");
        assertThat(updated.findValuesAsText("pid")).containsExactly(pids.stream().map(UUID::toString).toArray(String[]::new));
        for (int i = 0; i < 3; i++) {
            assertThat(updated.get(i).path("version").asLong()).isEqualTo(2);
            var read = API.get(pids.get(i)).json();
            assertThat(read.path("data").toString()).isEqualTo("{\"batch\":\"b1\"}");
            assertThat(updated.get(i).path("updatedAt")).isEqualTo(read.path("updatedAt"));
        }
    }

    @Test
    void oneStaleVersionAmongTenIs412NamingItAloneAndChangesNone() {
        var pids = profiles(10);
        var stalePid = pids.get(6);
        assertThat(API.put(stalePid, "\"1\"", "{\"moved\": true}").status()).isEqualTo(200);
        var before = snapshots(pids);

        var reply = API.batchUpdate(batch(pids, pid -> 1, "{\"batch\": \"b2\"}"));

        assertProblem(reply, 412, "stale-version");
        assertThat(reply.json().path("currentVersions").size()).isEqualTo(1);
        assertThat(reply.json().path("currentVersions").path(stalePid.toString()).asLong()).isEqualTo(2);
        assertThat(snapshots(pids)).isEqualTo(before);
    }

    @Test
    void oneLockedPidIs409AndChangesNoneNorLeavesTheOthersLocked() {
        var pids = profiles(10);
        var before = snapshots(pids);
        API.stores.locks.heldByAnother(LockTable.profile(pids.get(3)));

        var reply = API.batchUpdate(batch(pids, pid -> 1, "{\"batch\": \"b3\"}"));

        assertProblem(reply, 409, "locked");
        assertThat(reply.json().path("locked").toString()).contains(pids.get(3).toString());
        assertThat(snapshots(pids)).isEqualTo(before);
        var others = new ArrayList<>(pids);
        others.remove(3);
        assertThat(API.batchUpdate(batch(others, pid -> 1, "{\"batch\": \"b3\"}")).status())
                .as("the other nine were never left locked").isEqualTo(200);
    }

    @Test
    void anUnknownPidIs404NamingItAndChangesNone() {
        var pids = profiles(10);
        var before = snapshots(pids);
        var unknown = UUID.randomUUID();
        var withUnknown = new ArrayList<>(pids);
        withUnknown.add(unknown);

        var reply = API.batchUpdate(batch(withUnknown, pid -> 1, "{\"batch\": \"b4\"}"));

        assertProblem(reply, 404, "profile-not-found");
        assertThat(reply.json().path("pids").toString()).contains(unknown.toString()).doesNotContain(pids.get(0).toString());
        assertThat(snapshots(pids)).isEqualTo(before);
    }

    @Test
    void aBatchOfTheMostProfilesAllowedGoesThrough() {
        var pids = profiles(ProfileApiOverTwins.MAX_BATCH_SIZE);

        var reply = API.batchUpdate(batch(pids, pid -> 1, "{}"));

        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("updated")).hasSize(ProfileApiOverTwins.MAX_BATCH_SIZE);
    }

    static Stream<Arguments> refusedBatches() {
        var pid = UUID.randomUUID();
        var tooMany = new ArrayList<UUID>();
        IntStream.rangeClosed(0, ProfileApiOverTwins.MAX_BATCH_SIZE).forEach(i -> tooMany.add(UUID.randomUUID()));
        return Stream.of(
                Arguments.of("a pid twice", batch(List.of(pid, pid), p -> 1, "{}"), 400, "invalid-document"),
                Arguments.of("no updates", "{\"updates\": []}", 400, "invalid-document"),
                Arguments.of("one update more than allowed", batch(tooMany, p -> 1, "{}"), 400, "invalid-document"),
                Arguments.of("a document that is an array", batch(List.of(pid), p -> 1, "[1]"), 400, "invalid-document"),
                Arguments.of("an update without data", "{\"updates\": [{\"pid\": \"" + pid + "\", \"version\": 1}]}", 400,
                        "invalid-document"),
                Arguments.of("a document over 64 KiB", batch(List.of(pid), p -> 1,
                        "{\"blob\": \"" + "x".repeat(65_600) + "\"}"), 413, "document-too-large"),
                Arguments.of("a version that is not a number",
                        "{\"updates\": [{\"pid\": \"" + pid + "\", \"version\": \"one\", \"data\": {}}]}", 400,
                        "invalid-field"),
                Arguments.of("a pid that is not a UUID",
                        "{\"updates\": [{\"pid\": \"nope\", \"version\": 1, \"data\": {}}]}", 400, "invalid-field"),
                Arguments.of("a field an update does not have",
                        "{\"updates\": [{\"pid\": \"" + pid + "\", \"version\": 1, \"data\": {}, \"uid\": \"" + pid
                                + "\"}]}", 400, "unknown-field"));
    }

    /** Each is refused before any profile is read: the pids in it need not exist. */
    @ParameterizedTest(name = "a batch with {0}")
    @MethodSource("refusedBatches")
    void aBadBatchChangesNothing(String name, String body, int status, String type) {
        int announced = API.stores.outbox.records().size();
        int records = API.stores.audit.records().size();

        assertProblem(API.batchUpdate(body), status, type);

        assertThat(API.stores.outbox.records()).as("nothing was announced").hasSize(announced);
        assertThat(API.stores.audit.records()).as("nothing was recorded").hasSize(records);
    }
}
