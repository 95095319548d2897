package io.profilestore.resources;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/** A backing service that hangs (frozen, not merely closed) gets a 503 promptly, and the change does not happen. */
@ExtendWith(DropwizardExtensionsSupport.class)
@EnabledIf("io.profilestore.testing.TestStack#canPause")
class BackendOutageIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("postgres.socketTimeout", "2s")));

    Api api;
    UUID pid;
    ProfileApiIT.Snapshot before;

    @BeforeEach
    void existingProfile() {
        api = new Api(APP.getLocalPort());
        pid = api.create("{\"state\": \"before\"}").pid();
        before = ProfileApiIT.Snapshot.of(api, pid);
    }

    @Test
    void aFailingCheckShowsItsKindOnly() {
        TestStack.stack().pause(Service.POSTGRES);
        JsonNode postgres;
        try {
            postgres = api.onPort(APP.getAdminPort()).as(null).send("GET", "/healthcheck", null, null, Map.of())
                    .json().path("postgres");
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }

        assertThat(postgres.path("healthy").asBoolean()).as(postgres.toString()).isFalse();
        assertThat(postgres.has("error")).as("no exception, message or stack on the open port: %s", postgres).isFalse();
        assertThat(postgres.path("message").asText()).startsWith("failing: ").doesNotContain("jdbc").doesNotContain("127.0.0.1");
    }

    @Test
    void postgresHangingIsA503AndNothingChanges() {
        TestStack.stack().pause(Service.POSTGRES);
        Api.Reply update;
        Api.Reply create;
        try {
            update = api.put(pid, etag(1), "{\"state\": \"after\"}");
            create = api.create("{\"state\": \"new\"}");
        } finally {
            TestStack.stack().resume(Service.POSTGRES);
        }

        assertProblem(update, 503, "postgres-unavailable");
        assertThat(update.headers().firstValue("Retry-After")).isPresent();
        assertProblem(create, 503, "postgres-unavailable");
        assertThat(ProfileApiIT.Snapshot.of(api, pid)).isEqualTo(before);
        // a lock the hung request did take (committed once PostgreSQL thawed) may hold the profile for its lease,
        // no longer: within it, the same change goes through; a 409 after it is the profile left locked
        Duration lease = APP.getConfiguration().profiles.lockLease.toJavaDuration();
        var after = await("the profile's lock to be released, or its lease to run out").atMost(lease.plusSeconds(5))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> api.put(pid, etag(1), "{\"state\": \"after\"}"), reply -> reply.status() != 409);
        assertThat(after.status()).as("and the profile is not left locked: %s", after.body()).isEqualTo(200);
        assertThat(after.version()).isEqualTo(2);
    }

    @Test
    void cassandraHangingIsA503AndNothingChanges() {
        TestStack.stack().pause(Service.CASSANDRA);
        Api.Reply read;
        Api.Reply update;
        try {
            read = api.get(pid);
            update = api.put(pid, etag(1), "{\"state\": \"after\"}");
        } finally {
            TestStack.stack().resume(Service.CASSANDRA);
        }

        assertProblem(read, 503, "cassandra-unavailable");
        assertProblem(update, 503, "cassandra-unavailable");
        assertThat(update.json().path("detail").asText()).contains("nothing was changed");
        assertThat(ProfileApiIT.Snapshot.of(api, pid)).isEqualTo(before);
        assertThat(Stores.outboxVersions(pid)).containsExactly(1L);
        assertThat(api.put(pid, etag(1), "{\"state\": \"after\"}").status()).isEqualTo(200);
    }
}
