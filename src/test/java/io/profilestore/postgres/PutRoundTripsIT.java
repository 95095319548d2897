package io.profilestore.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.profilestore.backends.Backends;
import io.profilestore.change.Origin;
import io.profilestore.change.WritePathProbe;
import io.profilestore.profiles.ProfileService;
import io.profilestore.testing.Api;
import io.profilestore.testing.PostgresRoundTrips;
import io.profilestore.testing.TestStack;
import io.profilestore.wiring.Wiring;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a single-profile change costs PostgreSQL in round trips, counted on the wire by a proxy in front of it: the
 * write path of the service, its real adapters, no background work (no relay, no indexer, no audit writers), so that
 * every round trip counted is the change's own. A PUT takes its lock (with the check for an unsettled change of another
 * holder), records the change (the lock's renewal, the outbox record, what completes it, the audit record, and the
 * commit that must be durable) and releases the lock (docs/design/write-path.md). It took 11 before the lock and the
 * record each became one exchange.
 */
class PutRoundTripsIT {

    static final int MOST_PER_PUT = 4;
    static final int PUTS = 20;

    static PostgresRoundTrips proxy;
    static Backends backends;
    static ProfileService profiles;

    @BeforeAll
    static void writePathThroughTheProxy() throws Exception {
        var config = TestStack.configuration();
        var postgres = URI.create(config.postgres.url.substring("jdbc:".length()));
        proxy = PostgresRoundTrips.start(new InetSocketAddress(postgres.getHost(), postgres.getPort()));
        config.postgres.url = "jdbc:postgresql://127.0.0.1:" + proxy.port() + postgres.getRawPath()
                + (postgres.getRawQuery() == null ? "" : "?" + postgres.getRawQuery());
        var metrics = new MetricRegistry();
        backends = Backends.open(config.backends(), metrics, "round-trips-test");
        var wiring = new Wiring(config, backends, metrics, Api.JSON);
        profiles = wiring.profileService(wiring.changes(WritePathProbe.NONE, () -> { }));
    }

    @AfterAll
    static void close() throws Exception {
        if (backends != null) {
            backends.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    /** A request's change, whose outcome its answer's audit filter writes later, off the request's path. */
    static Origin request() {
        return new Origin(UUID.randomUUID(), "round-trips-test", "API_KEY", List.of("editor"), "PUT /v1/profiles/{pid}",
                "/v1/profiles/x", id -> { });
    }

    @Test
    void aPutOfOneProfileMakesAtMostFourRoundTripsToPostgres() {
        var pids = new ArrayList<UUID>();
        for (int i = 0; i < PUTS; i++) {
            pids.add(profiles.create(request(), null, Api.JSON.createObjectNode()
                    .put("surname", "Раундтрипова").put("n", i)).pid());
        }
        // the pool's connections opened and its statements prepared by the creates; a second put of each is counted
        pids.forEach(pid -> profiles.replace(request(), pid, 1, Api.JSON.createObjectNode().put("surname", "Первая")));

        long before = proxy.roundTrips();
        var perPut = new ArrayList<Long>();
        for (var pid : pids) {
            long start = proxy.roundTrips();
            var replaced = profiles.replace(request(), pid, 2, Api.JSON.createObjectNode().put("surname", "Вторая"));
            perPut.add(proxy.roundTrips() - start);
            assertThat(replaced.version()).isEqualTo(3);
        }

        assertThat(before).as("round trips the proxy counted for the creates and first puts").isPositive();
        assertThat(perPut).as("PostgreSQL round trips of each PUT").hasSize(PUTS)
                .allSatisfy(trips -> assertThat(trips).isLessThanOrEqualTo(MOST_PER_PUT));
    }
}
