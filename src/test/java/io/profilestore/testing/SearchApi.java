package io.profilestore.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/** Searches through the API and looks into the index, for the search tests. */
public final class SearchApi {

    /** The alias the tests' services search, the bundled configuration's. */
    static final String SHARED_ALIAS = "profiles";

    private final Api api;

    public SearchApi(Api api) {
        this.api = api;
    }

    public Api.Reply search(Map<String, String> parameters) {
        String query = parameters.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return api.send("GET", "/v1/search?" + query, null, null, Map.of());
    }

    /** The pids a search answers (one page). */
    public List<UUID> pids(Map<String, String> parameters) {
        var reply = search(parameters);
        if (reply.status() != 200) {
            throw new AssertionError("search " + parameters + " answered " + reply.status() + " " + reply.body());
        }
        var pids = new ArrayList<UUID>();
        for (JsonNode item : reply.json().path("items")) {
            pids.add(UUID.fromString(item.path("pid").asText()));
        }
        return pids;
    }

    /**
     * The profile version a search sees (behind the alias), or -1 when it sees none. A search, not a get: a get
     * sees a write at once, a search only after the next refresh.
     */
    public static long indexedVersion(UUID pid) {
        return indexedVersion(SHARED_ALIAS, pid);
    }

    /** The same behind another alias: a class's own. */
    public static long indexedVersion(String alias, UUID pid) {
        try {
            var hits = TestStack.backends().elasticsearch().search(s -> s.index(alias)
                    .query(q -> q.ids(i -> i.values(pid.toString()))), JsonNode.class).hits().hits();
            return hits.isEmpty() ? -1 : hits.get(0).source().path("version").asLong(-3);
        } catch (Exception e) {
            return -2;
        }
    }

    /** Waits until searches see this version of the profile (-1: until they see none). */
    public static void awaitIndexed(UUID pid, long version, Duration within) {
        awaitIndexed(SHARED_ALIAS, pid, version, within);
    }

    /** The same behind another alias: a class's own. */
    public static void awaitIndexed(String alias, UUID pid, long version, Duration within) {
        await("profile " + pid + " indexed at version " + version + " behind " + alias).atMost(within)
                .pollInterval(Duration.ofMillis(50)).until(() -> indexedVersion(alias, pid) == version);
    }

    /** A phone number no other test uses: a unique key to find exactly one's own profiles. */
    public static String uniquePhone() {
        long digits = Math.floorMod(UUID.randomUUID().getMostSignificantBits(), 1_000_000_000L);
        return "+7 (9" + String.format("%09d", digits).substring(0, 2) + ") " + String.format("%09d", digits).substring(2, 5)
                + "-" + String.format("%09d", digits).substring(5, 7) + "-" + String.format("%09d", digits).substring(7, 9);
    }
}
