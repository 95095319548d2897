package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The contention scenario's clients learn versions only from their own answers, as real clients would. */
class ContentionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final UUID pid = UUID.randomUUID();

    @Test
    void aClientLearnsItsNewVersionFromA200AndTheCurrentOneFromA412() throws Exception {
        var client = new Contention(List.of(pid), 3, 1).clients().get(0);

        client.learn(200, 3, null);
        assertThat(client.seen()).isEqualTo(4);

        client.learn(412, 4, JSON.readTree("{\"currentVersions\": {\"" + pid + "\": 9}}"));
        assertThat(client.seen()).isEqualTo(9);

        client.learn(409, 9, null);
        assertThat(client.seen()).as("locked: nothing learned").isEqualTo(9);

        client.learn(200, 5, null);
        assertThat(client.seen()).as("a late answer to an older request").isEqualTo(9);
    }

    @Test
    void eachHotProfileHasItsClients() {
        var pids = List.of(UUID.randomUUID(), UUID.randomUUID());
        var contention = new Contention(pids, 1, 4);

        assertThat(contention.clients()).hasSize(8);
        assertThat(contention.clients()).filteredOn(c -> c.pid.equals(pids.get(0))).hasSize(4);
        var random = new SplittableRandom(1);
        var picked = new HashMap<Contention.Client, Integer>();
        for (int i = 0; i < 800; i++) {
            picked.merge(contention.pick(random), 1, Integer::sum);
        }
        assertThat(picked).as("every client sends").hasSize(8);
    }

    /**
     * Against a fake service that holds one profile's version and its lock, on the fake clock: clients that send what
     * they last learned meet 200, 412 and 409, and the load generator counts the last two as outcomes, not errors.
     */
    @Test
    void clientsOfOneProfileMeetStaleVersionsAndLocksCountedAsOutcomes() {
        var clock = new FakeClock();
        var contention = new Contention(List.of(pid), 1, 4);
        var version = new long[] {1};
        var locked = new boolean[] {false};
        var random = new SplittableRandom(7);
        Load.Operation put = () -> {
            var client = contention.pick(random);
            long sent = client.seen();
            var answer = new CompletableFuture<Integer>();
            if (locked[0]) {
                answer.complete(409);
            } else if (sent != version[0]) {
                answer.complete(412);
            } else {
                locked[0] = true; // held for the 15 ms the write takes
                clock.after(Duration.ofMillis(15), () -> {
                    version[0]++;
                    locked[0] = false;
                    answer.complete(200);
                });
            }
            return answer.thenApply(status -> {
                client.learn(status, sent, status == 412 ? problem(version[0]) : null);
                return status;
            });
        };

        var result = Load.openLoopOnThisThread(clock, Duration.ofSeconds(5), "contention", 100, Duration.ofSeconds(1),
                Duration.ofSeconds(10), Contention.OUTCOMES, put);

        assertThat(result.errors()).isZero();
        assertThat(result.statuses().keySet()).containsExactly(200, 409, 412);
        assertThat(result.statuses().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1000);
        assertThat(result.latencies().getTotalCount()).isEqualTo(result.statuses().get(200));
        assertThat(result.latencies().getMinValue() / 1000.0).as("a write's 15 ms").isGreaterThanOrEqualTo(15);
    }

    private JsonNode problem(long current) {
        return JSON.valueToTree(Map.of("currentVersions", Map.of(pid.toString(), current)));
    }
}
