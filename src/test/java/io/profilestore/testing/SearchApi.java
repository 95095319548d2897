package io.profilestore.testing;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.profilestore.events.EventTopology;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/** Searches through the API and looks into the index, for the search tests. */
public final class SearchApi {

    /** The alias the tests' services search, the bundled configuration's. */
    public static final String SHARED_ALIAS = "profiles";

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

    /**
     * How long a test waits for a change to reach the index when it does not measure how long that takes. The first
     * change a service indexes pays for its JVM's cold paths: its first bulk took 263 ms against 17-35 ms for the next
     * on an idle machine, its first change 2.8 s from create to searchable with the JVM held to a tenth of a core, and
     * on CI (two forks and the benchmark on two cores) 6 s in a passing run and more than the 10 s then allowed in a
     * failing one. Short enough that a hang still fails in seconds; how soon a warm service's change is found is
     * measured on its own (SearchIT, the benchmark's index lag).
     */
    public static final Duration INDEXING_BOUND = Duration.ofSeconds(30);

    /** Waits until searches see this version of the profile (-1: until they see none), within {@link #INDEXING_BOUND}. */
    public static void awaitIndexed(UUID pid, long version) {
        awaitIndexed(SHARED_ALIAS, pid, version, INDEXING_BOUND);
    }

    /** The same within a bound of the test's own. */
    public static void awaitIndexed(UUID pid, long version, Duration within) {
        awaitIndexed(SHARED_ALIAS, pid, version, within);
    }

    /** The same behind another alias: a class's own. */
    public static void awaitIndexed(String alias, UUID pid, long version, Duration within) {
        try {
            await("profile " + pid + " indexed at version " + version + " behind " + alias).atMost(within)
                    .pollInterval(Duration.ofMillis(50)).until(() -> indexedVersion(alias, pid) == version);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "; " + whereTheChangeIs(alias, pid), e);
        }
    }

    /** Where a change stands between the outbox and the index: what a timeout needs to say to be diagnosed. */
    public static String whereTheChangeIs(String alias, UUID pid) {
        var where = new StringBuilder();
        try (var connection = TestStack.backends().postgres().getConnection();
                var statement = connection.prepareStatement("SELECT version, recorded_at, published_at FROM outbox"
                        + " WHERE entity_type = 'profile' AND entity_id = ? ORDER BY id")) {
            statement.setObject(1, pid);
            var records = new ArrayList<String>();
            try (var rows = statement.executeQuery()) {
                while (rows.next()) {
                    records.add(rows.getLong(1) + " recorded " + rows.getObject(2) + " published " + rows.getObject(3));
                }
            }
            where.append("outbox: ").append(records.isEmpty() ? "no record of it" : String.join(", ", records)).append(';');
        } catch (Exception e) {
            where.append("outbox unreadable: ").append(e);
        }
        try (var channel = TestStack.backends().rabbitmq().createChannel()) {
            var queue = channel.queueDeclarePassive(EventTopology.QUEUE);
            where.append(" queue ").append(EventTopology.QUEUE).append(": ").append(queue.getMessageCount())
                    .append(" ready, ").append(queue.getConsumerCount()).append(" consumer(s);");
        } catch (Exception e) {
            where.append(" queue unreadable: ").append(e).append(';');
        }
        return where.append(" the index holds version ").append(indexedVersion(alias, pid)).append(" at ")
                .append(Instant.now()).toString();
    }

    /** A phone number no other test uses: a unique key to find exactly one's own profiles. */
    public static String uniquePhone() {
        long digits = Math.floorMod(UUID.randomUUID().getMostSignificantBits(), 1_000_000_000L);
        return "+7 (9" + String.format("%09d", digits).substring(0, 2) + ") " + String.format("%09d", digits).substring(2, 5)
                + "-" + String.format("%09d", digits).substring(5, 7) + "-" + String.format("%09d", digits).substring(7, 9);
    }
}
