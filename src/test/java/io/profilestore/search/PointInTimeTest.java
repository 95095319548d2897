package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Searches hold no state in Elasticsearch between pages: a flood of first pages (one-letter searches, say) leaves
 * no points in time open, and paging stays stable without one (search_after on a total order).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PointInTimeTest {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true")));

    /** Search contexts open on the node: points in time among them. */
    static long openContexts() {
        try {
            return TestStack.backends().elasticsearch().nodes().stats(s -> s.metric(co.elastic.clients.elasticsearch.nodes.stats.NodeStatsMetric.Indices)).nodes().values().stream()
                    .mapToLong(node -> node.indices().search().openContexts()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aPageThatHoldsEveryHitKeepsNoPointInTime() {
        var api = new Api(APP.getLocalPort());
        var search = new SearchApi(api);
        String phone = SearchApi.uniquePhone();
        UUID pid = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1, Duration.ofSeconds(15));
        long before = openContexts();

        for (int i = 0; i < 30; i++) {
            var page = search.search(Map.of("phone", phone, "limit", "5"));
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.json().path("items")).hasSize(1);
            assertThat(page.json().has("nextCursor")).as("a page that holds every hit has no next").isFalse();
        }

        await("the searches' points in time to be closed").atMost(Duration.ofSeconds(10))
                .until(() -> openContexts() <= before);
    }

    @Test
    void firstPagesOfLongerSearchesKeepNoPointInTimeEither() {
        var api = new Api(APP.getLocalPort());
        var search = new SearchApi(api);
        String phone = SearchApi.uniquePhone();
        var created = new java.util.ArrayList<UUID>();
        for (int i = 0; i < 3; i++) {
            UUID pid = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
            SearchApi.awaitIndexed(pid, 1, Duration.ofSeconds(15));
            created.add(pid);
        }
        long before = openContexts();

        for (int i = 0; i < 30; i++) {
            var page = search.search(Map.of("phone", phone, "limit", "1"));
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.json().path("nextCursor").asText()).as("one of three hits has a next page").isNotEmpty();
        }

        // well within the two minutes a point in time would be kept
        await("no search context left open by 30 first pages").atMost(Duration.ofSeconds(10))
                .until(() -> openContexts() <= before);
        // and paging still meets every hit once, while a write lands between pages
        var seen = new java.util.ArrayList<UUID>();
        String cursor = null;
        do {
            var parameters = new java.util.HashMap<>(Map.of("phone", phone, "limit", "1"));
            if (cursor != null) {
                parameters.put("cursor", cursor);
            }
            var page = search.search(parameters);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().path("items").forEach(item -> seen.add(UUID.fromString(item.path("pid").asText())));
            cursor = page.json().path("nextCursor").asText(null);
            if (seen.size() == 1) {
                UUID late = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
                SearchApi.awaitIndexed(late, 1, Duration.ofSeconds(15));
            }
        } while (cursor != null && seen.size() < 10);
        assertThat(seen).as("no hit twice").doesNotHaveDuplicates();
        assertThat(seen).containsAll(created);
    }
}
