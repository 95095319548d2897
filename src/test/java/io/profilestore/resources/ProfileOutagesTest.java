package io.profilestore.resources;

import static io.profilestore.testing.ProfileApiOverTwins.assertProblem;
import static io.profilestore.testing.ProfileApiOverTwins.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.change.CassandraUnavailableException;
import io.profilestore.change.Lease;
import io.profilestore.change.LockTable;
import io.profilestore.change.PostgresUnavailableException;
import io.profilestore.change.WritePathProbe;
import io.profilestore.testing.ProfileApiOverTwins;
import io.profilestore.twins.InMemoryStores;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A change whose store fails under it, or whose locks another request takes, over the write path and twins that fail
 * on demand: a 503 to retry after a second, which says whether the change may have been applied, and no lock left
 * behind. The real outages (a store paused under the service) are in {@code BackendOutageIT}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileOutagesTest {

    static final ProfileApiOverTwins API = new ProfileApiOverTwins();

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("PostgreSQL down before the commit", fail(stores -> stores.transactions.failNextCommit(
                        new PostgresUnavailableException("down", null))), "postgres-unavailable", "nothing was changed"),
                Arguments.of("PostgreSQL's commit unanswered", fail(stores -> stores.transactions.failNextCommit(
                        new PostgresUnavailableException("no answer", null, true))), "postgres-unavailable",
                        "it may or may not be applied"),
                Arguments.of("Cassandra refusing the write", fail(stores -> stores.rows.failNextWrite(
                        new CassandraUnavailableException("refused", null, false))), "cassandra-unavailable",
                        "nothing was changed"),
                Arguments.of("Cassandra's write timing out", fail(stores -> stores.rows.failNextWrite(
                        new CassandraUnavailableException("timed out", null, true))), "cassandra-unavailable",
                        "it may or may not have been applied"));
    }

    /** Names the lambda's type for the table. */
    static Consumer<InMemoryStores> fail(Consumer<InMemoryStores> failure) {
        return failure;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void aChangeTheStoresFailIsA503ThatSaysWhetherItMayHaveBeenApplied(String name,
            Consumer<InMemoryStores> failure, String type, String detail) {
        var pid = API.existing("{\"n\": 1}");
        failure.accept(API.stores);

        var reply = API.put(pid, etag(1), "{\"n\": 2}");

        assertProblem(reply, 503, type);
        assertThat(reply.header("Retry-After")).isEqualTo("1");
        assertThat(reply.json().path("detail").asText()).contains(detail);
        assertThat(reply.etag()).isNull();
        assertThat(API.stores.locks.isFree(LockTable.profile(pid))).as("the lock is not left behind").isTrue();
        assertThat(API.get(pid).json().path("data").toString()).as("the twins wrote nothing").isEqualTo("{\"n\":1}");
    }

    /** The steps of a change at which another request takes its locks (its lease ran out). */
    enum TakenOver { BEFORE_RECORDING, AFTER_WRITING }

    static Stream<Arguments> locksTakenOver() {
        return Stream.of(
                Arguments.of(TakenOver.BEFORE_RECORDING, "was not applied; retry", "{\"n\":1}"),
                Arguments.of(TakenOver.AFTER_WRITING, "it may or may not have been applied", "{\"n\":2}"));
    }

    /** A newer holder of the locks may have written the profile too: the caller is told what it can know. */
    @ParameterizedTest(name = "locks taken {0}")
    @MethodSource("locksTakenOver")
    void aChangeWhoseLocksAnotherRequestTookIsA503ThatSaysWhetherItMayHaveBeenApplied(TakenOver when, String detail,
            String data) {
        var pid = API.existing("{\"n\": 1}");
        API.probe(new WritePathProbe() {
            @Override
            public void locked(Lease lease) {
                if (when == TakenOver.BEFORE_RECORDING) {
                    API.stores.locks.takenOver(lease);
                }
            }

            @Override
            public void written(Lease lease) {
                if (when == TakenOver.AFTER_WRITING) {
                    API.stores.locks.takenOver(lease);
                }
            }
        });
        ProfileApiOverTwins.Reply reply;
        try {
            reply = API.put(pid, etag(1), "{\"n\": 2}");
        } finally {
            API.probe(WritePathProbe.NONE);
        }

        assertProblem(reply, 503, "lease-lost");
        assertThat(reply.json().path("detail").asText()).contains(detail);
        assertThat(API.get(pid).json().path("data").toString()).isEqualTo(data);
    }

    @Test
    void aWriteCassandraRefusedIsNotAppliedAndTheSameChangeGoesThroughOnRetry() {
        var pid = API.existing("{\"n\": 1}");
        API.stores.rows.failNextWrite(new CassandraUnavailableException("refused", null, false));
        assertThat(API.put(pid, etag(1), "{\"n\": 2}").status()).isEqualTo(503);

        var retried = API.put(pid, etag(1), "{\"n\": 2}");

        assertThat(retried.status()).as(retried.body()).isEqualTo(200);
        assertThat(retried.etag()).isEqualTo("\"2\"");
    }

    @Test
    void aCreateWhoseRecordPostgresRefusedLeavesNoProfileAndNoUser() {
        API.stores.transactions.failNextCommit(new PostgresUnavailableException("down", null));
        var pid = UUID.randomUUID();
        var uid = UUID.randomUUID();

        var reply = API.createAt(pid, "{\"uid\": \"" + uid + "\", \"data\": {}}");

        assertProblem(reply, 503, "postgres-unavailable");
        assertProblem(API.get(pid), 404, "profile-not-found");
        assertThat(API.stores.rows.findUser(uid)).isEmpty();
        assertThat(API.outboxVersions(pid)).isEmpty();
        assertThat(API.createAt(pid, "{\"uid\": \"" + uid + "\", \"data\": {}}").status()).as("the pid is free")
                .isEqualTo(201);
    }
}
