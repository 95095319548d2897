package io.profilestore.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.TestStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The whole application on the stack: its admin port reports each backing service, and the audit writers, healthy. */
@ExtendWith(DropwizardExtensionsSupport.class)
class ApplicationHealthIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void everyBackendIsHealthy() {
        var response = APP.client().target("http://localhost:" + APP.getAdminPort() + "/healthcheck")
                .request().get();
        var checks = response.readEntity(JsonNode.class);

        assertThat(response.getStatus()).as("healthcheck status, body %s", checks).isEqualTo(200);
        for (String backend : new String[] {"cassandra", "elasticsearch", "postgres", "rabbitmq", "audit"}) {
            assertThat(checks.path(backend).path("healthy").asBoolean())
                    .as("%s: %s", backend, checks.path(backend)).isTrue();
        }
        assertThat(checks.path("cassandra").path("message").asText()).contains("nodes up")
                .contains("QUORUM met for keyspace profiles");
    }

    @Test
    void readinessAsksTheSameChecksWithCassandrasAsThisInstanceSeesIt() {
        var response = APP.client().target("http://localhost:" + APP.getAdminPort() + "/ready").request().get();
        var checks = response.readEntity(JsonNode.class);

        assertThat(response.getStatus()).as("ready, body %s", checks).isEqualTo(200);
        assertThat(checks.fieldNames()).toIterable().containsExactlyInAnyOrder("cassandra", "elasticsearch", "postgres",
                "rabbitmq", "audit", "deadlocks");
        assertThat(checks.path("cassandra").path("message").asText()).startsWith("Cassandra").endsWith("answers");
    }

    @Test
    void metricsIncludeTheBackendClients() {
        var metrics = APP.client().target("http://localhost:" + APP.getAdminPort() + "/metrics")
                .request().get(JsonNode.class);

        assertThat(metrics.path("gauges").fieldNames()).toIterable()
                .anyMatch(name -> name.startsWith("profile-store.connected-nodes"))
                .anyMatch(name -> name.startsWith("profile-store-postgres.pool"));
    }
}
