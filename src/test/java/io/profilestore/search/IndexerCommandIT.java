package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.ServiceProcess;
import io.profilestore.testing.TestStack;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The indexer as production runs it: the {@code indexer} command, a process of its own beside the API. */
@ExtendWith(DropwizardExtensionsSupport.class)
class IndexerCommandIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> API = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides());

    @Test
    void theIndexerCommandIndexesWhatTheApiWrites() throws Exception {
        var api = new Api(API.getLocalPort());
        try (var indexer = ServiceProcess.start("indexer", null, Map.of())) {
            var pid = api.create("{\"surname\": \"Белоусова\", \"phones\": [\"" + SearchApi.uniquePhone() + "\"]}").pid();

            SearchApi.awaitIndexed(pid, 1);

            var health = indexer.admin("/healthcheck");
            assertThat(health.json().path("indexer").path("healthy").asBoolean()).as(health.body()).isTrue();
            // the API runs no indexer of its own: the profile was indexed by this process, and its meter says so
            assertThat(indexer.admin("/metrics").json().path("meters").path("indexer.indexed").path("count").asLong())
                    .as("profiles the indexer process indexed").isPositive();
            assertThat(indexer.api().send("GET", "/v1/profiles/" + pid, null, null, Map.of()).status())
                    .as("the indexer serves no API").isEqualTo(404);
        }
    }
}
