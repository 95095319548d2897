package io.profilestore.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import co.elastic.clients.elasticsearch.nodes.stats.NodeStatsMetric;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.profilestore.ProfileStoreApplication;
import io.profilestore.config.ProfileStoreConfiguration;
import io.profilestore.testing.Api;
import io.profilestore.testing.SearchApi;
import io.profilestore.testing.TestAuth;
import io.profilestore.testing.TestStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Searches hold no state in Elasticsearch between pages: a first page is one search request and opens no point in
 * time (the node's counters say so), a flood of first pages (one-letter searches, say) leaves no search context
 * open, and paging stays stable without one (search_after on a total order: score, name, pid).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PointInTimeIT {

    static final DropwizardAppExtension<ProfileStoreConfiguration> APP = new DropwizardAppExtension<>(
            ProfileStoreApplication.class, TestStack.configPath(), TestStack.configOverrides(
                    ConfigOverride.config("indexer.inProcess", "true")));

    /** Search contexts open on the node: points in time among them. */
    static long openContexts() {
        try {
            return TestStack.backends().elasticsearch().nodes().stats(s -> s.metric(NodeStatsMetric.Indices)).nodes().values().stream()
                    .mapToLong(node -> node.indices().search().openContexts()).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The REST requests Elasticsearch has served since it started, by action ({@code search_action},
     * {@code open_point_in_time_action}...), summed over its nodes: {@code _nodes/usage}.
     */
    static Map<String, Long> requests() {
        try {
            var request = HttpRequest.newBuilder(URI.create(TestStack.endpoints().elasticsearchUrl() + "/_nodes/usage"))
                    .GET().build();
            var usage = JSON.readTree(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()).body());
            var counts = new TreeMap<String, Long>();
            for (var node : usage.path("nodes")) {
                node.path("rest_actions").fields().forEachRemaining(e -> counts.merge(e.getKey(), e.getValue().asLong(), Long::sum));
            }
            return counts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long delta(Map<String, Long> before, Map<String, Long> after, String action) {
        return after.getOrDefault(action, 0L) - before.getOrDefault(action, 0L);
    }

    /** Requests of every action about points in time (open, close) between the two counts. */
    private static long pointInTimeRequests(Map<String, Long> before, Map<String, Long> after) {
        return after.keySet().stream().filter(action -> action.contains("point_in_time"))
                .mapToLong(action -> delta(before, after, action)).sum();
    }

    @Test
    void aFirstPageIsOneSearchOfTheIndexAndOpensNoPointInTime() {
        var api = new Api(APP.getLocalPort());
        var search = new SearchApi(api);
        String phone = SearchApi.uniquePhone();
        UUID last = null;
        for (int i = 0; i < 3; i++) {
            last = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
        }
        SearchApi.awaitIndexed(last, 1);
        var before = requests();

        for (int i = 0; i < 10; i++) {
            // one page of all three, and a first page of one with a next
            assertThat(search.search(Map.of("phone", phone, "limit", "5")).json().path("items")).hasSize(3);
            assertThat(search.search(Map.of("phone", phone, "limit", "1")).json().path("nextCursor").asText()).isNotEmpty();
        }

        var after = requests();
        assertThat(delta(before, after, "search_action")).as("one search request per page: %s -> %s", before, after)
                .isEqualTo(20);
        assertThat(pointInTimeRequests(before, after)).as("points in time opened or closed: %s -> %s", before, after)
                .isZero();

        // and the count would see one: a point in time opened and closed by hand shows
        var client = TestStack.backends().elasticsearch();
        try {
            String pit = client.openPointInTime(p -> p.index(TestStack.configuration().elasticsearch.indexAlias)
                    .keepAlive(t -> t.time("10s"))).id();
            client.closePointInTime(c -> c.id(pit));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(pointInTimeRequests(after, requests())).isEqualTo(2);
    }

    /**
     * Hits of different scores (a whole surname scores above a longer one it begins, the name as typed above a
     * transliteration), paged two at a time: the pages together are the one long page, in its order, each hit once.
     */
    @Test
    void pagingThroughHitsOfDifferentScoresMeetsEachOnceInTheOrderOfOnePage() {
        var api = new Api(APP.getLocalPort());
        var search = new SearchApi(api);
        String phone = SearchApi.uniquePhone();
        var created = new ArrayList<UUID>();
        for (String surname : List.of("Точкин", "Точкина", "Tochkin", "Точкинский", "Точкин", "Tochkina", "Точкина")) {
            created.add(api.create("{\"surname\": \"" + surname + "\", \"phones\": [\"" + phone + "\"]}").pid());
        }
        created.forEach(pid -> SearchApi.awaitIndexed(pid, 1));
        String q = "точкин " + phone;

        var whole = search.search(Map.of("q", q, "limit", "100"));
        assertThat(whole.status()).as(whole.body()).isEqualTo(200);
        var order = new ArrayList<UUID>();
        whole.json().path("items").forEach(item -> order.add(UUID.fromString(item.path("pid").asText())));
        assertThat(order).containsExactlyInAnyOrderElementsOf(created);

        var paged = new ArrayList<UUID>();
        String cursor = null;
        int pages = 0;
        do {
            var parameters = new HashMap<>(Map.of("q", q, "limit", "2"));
            if (cursor != null) {
                parameters.put("cursor", cursor);
            }
            var page = search.search(parameters);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().path("items").forEach(item -> paged.add(UUID.fromString(item.path("pid").asText())));
            cursor = page.json().path("nextCursor").asText(null);
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(pages).isEqualTo(4);
        assertThat(paged).doesNotHaveDuplicates().containsExactlyElementsOf(order);
    }

    @Test
    void aPageThatHoldsEveryHitKeepsNoPointInTime() {
        var api = new Api(APP.getLocalPort());
        var search = new SearchApi(api);
        String phone = SearchApi.uniquePhone();
        UUID pid = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
        SearchApi.awaitIndexed(pid, 1);
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
        var created = new ArrayList<UUID>();
        for (int i = 0; i < 3; i++) {
            UUID pid = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
            SearchApi.awaitIndexed(pid, 1);
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
        var seen = new ArrayList<UUID>();
        String cursor = null;
        do {
            var parameters = new HashMap<>(Map.of("phone", phone, "limit", "1"));
            if (cursor != null) {
                parameters.put("cursor", cursor);
            }
            var page = search.search(parameters);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            page.json().path("items").forEach(item -> seen.add(UUID.fromString(item.path("pid").asText())));
            cursor = page.json().path("nextCursor").asText(null);
            if (seen.size() == 1) {
                UUID late = api.create("{\"surname\": \"Точкина\", \"phones\": [\"" + phone + "\"]}").pid();
                SearchApi.awaitIndexed(late, 1);
            }
        } while (cursor != null && seen.size() < 10);
        assertThat(seen).as("no hit twice").doesNotHaveDuplicates();
        assertThat(seen).containsAll(created);
    }

    /**
     * A search fetches of each hit only the fields it answers with: the name keys in every reading, the numbers and
     * the e-mail are indexed for matching, and would be fetched, sent and parsed for nothing. The answer still shows
     * every field of a hit.
     */
    @Test
    void aSearchFetchesOnlyTheFieldsItAnswersWith() throws IOException {
        var api = new Api(APP.getLocalPort());
        String phone = SearchApi.uniquePhone();
        var pid = api.create("{\"surname\": \"Выборочная\", \"firstName\": \"Анна\", \"patronymic\": \"Ивановна\", "
                + "\"birthDate\": \"1990-01-02\", \"email\": \"anna@example.org\", \"phones\": [\"" + phone + "\"], "
                + "\"documents\": [{\"type\": \"passport\", \"number\": \"4500 123456\"}]}").pid();
        SearchApi.awaitIndexed(pid, 1);
        var criteria = new SearchCriteria(null, null, null, null,
                Numbers.phone(phone).orElseThrow(), null, null);

        var hits = TestStack.backends().elasticsearch().search(SearchQuery.request(
                TestStack.configuration().elasticsearch.indexAlias, criteria, TestAuth.numberKeys(), 20, null),
                JsonNode.class).hits().hits();

        assertThat(hits).hasSize(1);
        var fields = new ArrayList<String>();
        hits.get(0).source().fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactlyInAnyOrder("pid", "uid", "version", "surname", "firstName", "patronymic",
                "birthDate");
        var item = new SearchApi(api).search(Map.of("phone", phone)).json().path("items").path(0);
        assertThat(item.path("pid").asText()).isEqualTo(pid.toString());
        assertThat(item.path("uid").asText()).isNotEmpty();
        assertThat(item.path("version").asLong()).isEqualTo(1);
        assertThat(List.of(item.path("surname").asText(), item.path("firstName").asText(),
                item.path("patronymic").asText(), item.path("birthDate").asText()))
                .containsExactly("Выборочная", "Анна", "Ивановна", "1990-01-02");
    }
}
