package io.profilestore.search;

import static io.profilestore.testing.Api.assertProblem;
import static io.profilestore.testing.Api.etag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.stack.LocalStack.Service;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/** RabbitMQ or Elasticsearch down: writes go on, and once it is back every change reaches the index. */
@ExtendWith(DropwizardExtensionsSupport.class)
@EnabledIf("io.profilestore.testing.TestStack#canPause")
class SearchOutageIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true"),
                    ConfigOverride.config("elasticsearch.requestTimeout", "3s")));

    static final Duration CATCH_UP = Duration.ofSeconds(90);

    Api api;
    SearchApi search;

    @BeforeEach
    void clients() {
        api = new Api(APP.getLocalPort());
        search = new SearchApi(api);
        // the test's own clients of the stores, opened now: they cannot be opened while a service is down
        TestStack.backends();
    }

    /** Writes 10 profiles, changes half of them once more; returns the version each should end at. */
    Map<UUID, Long> writeWhileDown() {
        var expected = new HashMap<UUID, Long>();
        for (int i = 0; i < 10; i++) {
            var created = api.create("{\"surname\": \"Ковалёва\", \"firstName\": \"Вера\", \"n\": " + i + "}");
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            expected.put(created.pid(), 1L);
            if (i % 2 == 0) {
                assertThat(api.patch(created.pid(), etag(1), "{\"n\": " + (i + 100) + "}").status()).isEqualTo(200);
                expected.put(created.pid(), 2L);
            }
        }
        return expected;
    }

    /** The relay's backlog gauge: how many changes wait in the outbox (it is measured every few seconds). */
    static long backlog() {
        return ((Number) APP.getEnvironment().metrics().getGauges().get("events.outbox.backlog").getValue()).longValue();
    }

    @Test
    void writesGoOnWhileRabbitMqIsDownAndAreIndexedWhenItReturns() {
        Map<UUID, Long> expected;
        long changes;
        try (var outage = TestStack.stack().outage(Service.RABBITMQ)) {
            expected = writeWhileDown();
            // every create and every patch is one recorded change
            changes = expected.values().stream().mapToLong(Long::longValue).sum();
            assertThat(Stores.unpublished(expected.keySet())).as("the changes wait in the outbox").isEqualTo(changes);
            await("the outbox backlog gauge to count the waiting changes").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250)).until(SearchOutageIT::backlog, backlog -> backlog >= changes);
            assertThat(Stores.unpublished(expected.keySet())).as("and still wait while RabbitMQ is down").isEqualTo(changes);
        }

        await("the outbox to drain").atMost(CATCH_UP).pollInterval(Duration.ofMillis(250))
                .until(() -> Stores.unpublished(expected.keySet()) == 0 && backlog() == 0);
        expected.forEach((pid, version) -> SearchApi.awaitIndexed(pid, version, CATCH_UP));
    }

    @Test
    void searchAnswers503WhileElasticsearchIsDownAndTheIndexCatchesUpAfter() {
        Map<UUID, Long> expected;
        try (var outage = TestStack.stack().outage(Service.ELASTICSEARCH)) {
            assertProblem(search.search(Map.of("surname", "Ковалёва")), 503, "search-unavailable");
            expected = writeWhileDown();
            assertThat(api.get(expected.keySet().iterator().next()).status()).as("reads go on").isEqualTo(200);
        }

        expected.forEach((pid, version) -> SearchApi.awaitIndexed(pid, version, CATCH_UP));
        assertThat(search.search(Map.of("surname", "Ковалёва")).status()).isEqualTo(200);
    }
}
