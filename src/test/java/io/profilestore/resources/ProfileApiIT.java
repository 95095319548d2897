package io.profilestore.resources;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One round trip of each change against the real stack (the stores, the outbox, the users they reach), and what only
 * the real stores can tell: the lock table's refusal at once, a batch of a hundred full documents. The rest of the
 * HTTP behaviour of profiles runs over the twins: {@link ProfileWritesTest}, {@link ConditionalWritesTest},
 * {@link BatchCreateTest}, {@link BatchUpdateTest}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProfileApiIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    Api api;

    @BeforeEach
    void client() {
        api = new Api(APP.getLocalPort());
    }

    /** What a refused request must leave as it was: status, version, document and outbox of a profile. */
    public record Snapshot(int status, String etag, String body, List<Long> outbox) {
        static Snapshot of(Api api, UUID pid) {
            var reply = api.get(pid);
            return new Snapshot(reply.status(), reply.etag(), reply.body(), Stores.outboxVersions(pid));
        }
    }

    UUID existing(String data) {
        var created = api.create(data);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.pid();
    }

    @Nested
    class Create {
        @Test
        void withoutUidMakesANewUserAtVersionOne() {
            var created = api.create("{\"surname\": \"Иванов\", \"phones\": [\"79123456789\"]}");

            assertThat(created.status()).isEqualTo(201);
            assertThat(created.etag()).isEqualTo("\"1\"");
            var body = created.json();
            var pid = UUID.fromString(body.path("pid").asText());
            var uid = UUID.fromString(body.path("uid").asText());
            assertThat(created.headers().firstValue("Location")).hasValueSatisfying(
                    location -> assertThat(location).endsWith("/v1/profiles/" + pid));
            assertThat(body.path("version").asLong()).isEqualTo(1);
            assertThat(body.path("data").path("surname").asText()).isEqualTo("Иванов");
            assertThat(body.path("createdAt").asText()).isEqualTo(body.path("updatedAt").asText());
            assertThat(Stores.pidsOfUser(uid)).containsExactly(pid);
            assertThat(Stores.outboxVersions(pid)).containsExactly(1L);

            var read = api.get(pid);
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.etag()).isEqualTo("\"1\"");
            assertThat(read.json()).isEqualTo(body);
        }
    }

    @Nested
    class Replace {
        @Test
        void withTheCurrentVersionAnswersTheNextOne() {
            var pid = existing("{\"a\": 1}");
            var before = api.get(pid).json();

            var replaced = api.put(pid, etag(1), "{\"b\": 2}");

            assertThat(replaced.status()).as(replaced.body()).isEqualTo(200);
            assertThat(replaced.etag()).isEqualTo("\"2\"");
            var body = replaced.json();
            assertThat(body.path("version").asLong()).isEqualTo(2);
            assertThat(body.path("data").toString()).isEqualTo("{\"b\":2}");
            assertThat(body.path("createdAt")).isEqualTo(before.path("createdAt"));
            assertThat(Instant.parse(body.path("updatedAt").asText()))
                    .isAfter(Instant.parse(before.path("updatedAt").asText()));
            assertThat(api.get(pid).json()).isEqualTo(body);
            assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L);
        }

        @Test
        void whileAnotherRequestHoldsTheLockIs409AtOnceAndChangesNothing() {
            var pid = existing("{\"a\": 1}");
            var before = Snapshot.of(api, pid);
            var holder = Stores.lockProfile(pid, Duration.ofSeconds(30));
            try {
                long started = System.nanoTime();
                var refused = api.put(pid, etag(1), "{\"a\": 2}");

                assertProblem(refused, 409, "locked");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
                assertThat(Snapshot.of(api, pid)).isEqualTo(before);
            } finally {
                Stores.locks(Duration.ofSeconds(30)).release(holder);
            }
            assertThat(api.put(pid, etag(1), "{\"a\": 2}").status()).isEqualTo(200);
        }
    }

    @Nested
    class Patch {
        @Test
        void mergesIntoTheStoredDocumentAtTheNextVersion() {
            var pid = existing("{\"a\": 1, \"b\": 2}");

            var patched = api.patch(pid, etag(1), "{\"b\": null, \"c\": 3}");

            assertThat(patched.status()).as(patched.body()).isEqualTo(200);
            assertThat(patched.etag()).isEqualTo("\"2\"");
            assertThat(patched.json().path("data").toString()).isEqualTo("{\"a\":1,\"c\":3}");
            assertThat(api.get(pid).json()).isEqualTo(patched.json());
            assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L);
        }
    }

    @Nested
    class Erase {
        @Test
        void removesTheProfileAndItsPlaceInTheUser() {
            var created = api.create("{\"a\": 1}").json();
            var pid = UUID.fromString(created.path("pid").asText());
            var uid = UUID.fromString(created.path("uid").asText());

            var erased = api.delete(pid, etag(1));

            assertThat(erased.status()).isEqualTo(204);
            assertProblem(api.get(pid), 404, "profile-not-found");
            assertThat(Stores.pidsOfUser(uid)).isEmpty();
            assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L);
        }
    }

    @Nested
    class BatchCreate {
        String batch(List<String> datas) {
            return datas.stream().map(data -> "{\"data\": " + data + "}")
                    .collect(Collectors.joining(", ", "{\"profiles\": [", "]}"));
        }

        @Test
        void createsEachProfileUnderItsOwnNewUserInTheOrderSent() {
            var reply = api.batchCreate(batch(List.of("{\"n\": 0}", "{\"n\": 1}", "{\"n\": 2}")));

            assertThat(reply.status()).as(reply.body()).isEqualTo(201);
            var created = reply.json().path("created");
            assertThat(created).hasSize(3);
            var uids = new HashSet<String>();
            for (int i = 0; i < 3; i++) {
                var pid = UUID.fromString(created.get(i).path("pid").asText());
                var uid = UUID.fromString(created.get(i).path("uid").asText());
                assertThat(created.get(i).path("version").asLong()).isEqualTo(1);
                var read = api.get(pid);
                assertThat(read.etag()).isEqualTo("\"1\"");
                assertThat(read.json().path("data").path("n").asInt()).isEqualTo(i);
                assertThat(read.json().path("uid").asText()).isEqualTo(uid.toString());
                assertThat(Stores.pidsOfUser(uid)).containsExactly(pid);
                assertThat(api.user(uid).status()).isEqualTo(200);
                assertThat(Stores.outboxVersions(pid)).containsExactly(1L);
                uids.add(uid.toString());
            }
            assertThat(uids).hasSize(3);
        }
    }

    @Nested
    class BatchUpdate {
        List<UUID> tenProfiles() {
            var pids = new ArrayList<UUID>();
            for (int i = 0; i < 10; i++) {
                pids.add(existing("{\"n\": " + i + "}"));
            }
            return pids;
        }

        String batch(List<UUID> pids, ToLongFunction<UUID> version, String data) {
            return pids.stream()
                    .map(pid -> "{\"pid\": \"" + pid + "\", \"version\": " + version.applyAsLong(pid) + ", \"data\": " + data + "}")
                    .collect(Collectors.joining(", ", "{\"updates\": [", "]}"));
        }

        @Test
        void changesAllProfilesByOneVersion() {
            var pids = tenProfiles();

            var reply = api.batchUpdate(batch(pids, pid -> 1, "{\"batch\": \"b1\"}"));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(reply.json().path("updated")).hasSize(10);
            for (var pid : pids) {
                var read = api.get(pid);
                assertThat(read.etag()).isEqualTo("\"2\"");
                assertThat(read.json().path("data").path("batch").asText()).isEqualTo("b1");
                assertThat(Stores.outboxVersions(pid)).containsExactly(1L, 2L);
            }
        }

        @Test
        void aHundredFullSizeDocumentsGoInOneBatch() {
            var pids = new ArrayList<UUID>();
            for (int i = 0; i < 100; i++) {
                pids.add(existing("{\"n\": " + i + "}"));
            }
            String large = "{\"blob\": \"" + "x".repeat(60_000) + "\"}";

            var reply = api.batchUpdate(batch(pids, pid -> 1, large));

            assertThat(reply.status()).as(reply.body()).isEqualTo(200);
            assertThat(api.get(pids.get(99)).json().path("data").path("blob").asText()).hasSize(60_000);
        }
    }
}
