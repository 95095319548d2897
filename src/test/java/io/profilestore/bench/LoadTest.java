package io.profilestore.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

/** What the load generator counts, against a fake service on a fake clock: no real service, no real time. */
class LoadTest {

    private final FakeClock clock = new FakeClock();

    /**
     * Request n answers by n % 10: 0 fails at once, 1 answers 500 after 5 ms, 2 never answers, 3 answers 200 after
     * 300 ms, 4 fails with a timeout after 1 s, the rest answer 200 after 2 ms.
     */
    private Load.Operation service() {
        var next = new AtomicInteger();
        return () -> {
            var answer = new CompletableFuture<Integer>();
            switch (next.getAndIncrement() % 10) {
                case 0 -> answer.completeExceptionally(new IOException("connection reset"));
                case 1 -> clock.after(Duration.ofMillis(5), () -> answer.complete(500));
                case 2 -> { } // never
                case 3 -> clock.after(Duration.ofMillis(300), () -> answer.complete(200));
                case 4 -> clock.after(Duration.ofSeconds(1), () -> answer.completeExceptionally(new TimeoutException()));
                default -> clock.after(Duration.ofMillis(2), () -> answer.complete(200));
            }
            return answer;
        };
    }

    private Load.Result run(Load.Operation operation, Set<Integer> outcomes) {
        // 100/s: requests 100 to 299 are due in the measured 2 s; the run then waits 5 s for the last answers
        return Load.openLoopOnThisThread(clock, Duration.ofSeconds(5), "fake", 100, Duration.ofSeconds(1),
                Duration.ofSeconds(2), outcomes, operation);
    }

    @Test
    void achievedIsSuccessfulAnswersASecondAndEveryFailureIsCounted() {
        var result = run(service(), Set.of());

        assertThat(result.latencies().getTotalCount()).as("successes").isEqualTo(120);
        assertThat(result.errors()).as("errors: failed at once, and 500").isEqualTo(40);
        assertThat(result.timeouts()).as("timeouts: said so after 1 s, and never answered").isEqualTo(40);
        assertThat(result.all().getTotalCount()).as("every request due in the window").isEqualTo(200);
        assertThat(result.statuses()).isEqualTo(Map.of(200, 120L, 500, 20L));
        // answered with 200 within the window: the fast ones due in it, and the slow ones due from 0.7 to 2.7 s
        assertThat(result.throughput()).as("achieved /s").isEqualTo(60.0);
    }

    @Test
    void successesKeepTheirPercentilesAndAllRequestsCountAtTheTimeTheyTook() {
        var result = run(service(), Set.of());

        assertThat(result.latencies().getValueAtPercentile(50) / 1000.0).as("successes' p50, ms").isCloseTo(2, within());
        assertThat(result.latencies().getMaxValue() / 1000.0).as("the slowest success, ms").isCloseTo(300, within());
        // of 200: 120 successes, 20 errors at once (0 ms), 20 500s (5 ms), 20 timeouts after 1 s, and 20 never
        // answered, which count when the run stopped waiting, 5 s after the last request was due (at 2.99 s): those due
        // at 1.02, 1.12, 1.22 s are the slowest three, and the 198th of 200 is the third
        assertThat(result.all().getValueAtPercentile(60) / 1000.0).as("all p60, ms").isCloseTo(2, within());
        assertThat(result.all().getValueAtPercentile(85) / 1000.0).as("all p85, ms").isCloseTo(1000, within());
        assertThat(result.all().getValueAtPercentile(99) / 1000.0).as("all p99, ms").isCloseTo(6_770, within());
        assertThat(result.all().getMinValue()).as("a failure at once").isZero();
    }

    @Test
    void expectedOutcomesAreCountedByStatusNotAsErrors() {
        var next = new AtomicInteger();
        Load.Operation contended = () -> {
            int status = switch (next.getAndIncrement() % 4) {
                case 0 -> 409;
                case 1 -> 412;
                case 2 -> 404;
                default -> 200;
            };
            var answer = new CompletableFuture<Integer>();
            clock.after(Duration.ofMillis(status == 200 ? 8 : 1), () -> answer.complete(status));
            return answer;
        };

        var result = run(contended, Set.of(409, 412));

        assertThat(result.statuses()).isEqualTo(Map.of(200, 50L, 404, 50L, 409, 50L, 412, 50L));
        assertThat(result.errors()).as("only the 404s").isEqualTo(50);
        assertThat(result.share(409)).isEqualTo(0.25);
        assertThat(result.latencies().getTotalCount()).as("the successes' latencies alone").isEqualTo(50);
        assertThat(result.latencies().getMinValue() / 1000.0).isCloseTo(8, within());
        assertThat(result.throughput()).as("200s a second").isEqualTo(25.0);
    }

    @Test
    void interleavedOperationsTakeTurnsAndAreEachCountedApart() {
        var order = new StringBuilder();
        Load.Operation fast = () -> {
            order.append('f');
            var answer = new CompletableFuture<Integer>();
            clock.after(Duration.ofMillis(2), () -> answer.complete(200));
            return answer;
        };
        Load.Operation slow = () -> {
            order.append('s');
            var answer = new CompletableFuture<Integer>();
            clock.after(Duration.ofMillis(10), () -> answer.complete(200));
            return answer;
        };

        var results = Load.openLoopOnThisThread(clock, Duration.ofSeconds(5), List.of("fast", "slow"), 100,
                Duration.ofSeconds(1), Duration.ofSeconds(2), Set.of(), List.of(fast, slow));

        assertThat(order).as("300 requests in all").hasSize(300);
        for (int round = 0; round < 150; round++) {
            assertThat(order.substring(2 * round, 2 * round + 2)).as("round %d: each kind once", round).isIn("fs", "sf");
        }
        assertThat(order.toString()).as("the order drawn anew each round, not fixed").isNotEqualTo("fs".repeat(150))
                .isNotEqualTo("sf".repeat(150));
        var fastResult = results.get(0);
        var slowResult = results.get(1);
        assertThat(fastResult.scenario()).isEqualTo("fast");
        assertThat(fastResult.targetRate()).as("each its share of the rate").isEqualTo(50.0);
        assertThat(fastResult.latencies().getTotalCount()).as("its own requests of the window").isEqualTo(100);
        assertThat(slowResult.latencies().getTotalCount()).isEqualTo(100);
        assertThat(fastResult.latencies().getMaxValue() / 1000.0).isCloseTo(2, within());
        assertThat(slowResult.latencies().getMinValue() / 1000.0).isCloseTo(10, within());
        assertThat(fastResult.throughput()).isEqualTo(50.0);
        assertThat(slowResult.window().fromNanos()).as("one window").isEqualTo(fastResult.window().fromNanos());
    }

    @Test
    void aTurnThatNeverAnswersTimesOutAloneAndTheOthersAreCountedAsTheyCame() {
        Load.Operation answers = () -> {
            var answer = new CompletableFuture<Integer>();
            clock.after(Duration.ofMillis(2), () -> answer.complete(200));
            return answer;
        };
        Load.Operation silent = CompletableFuture::new;
        Load.Operation refused = () -> CompletableFuture.completedFuture(503);

        var results = Load.openLoopOnThisThread(clock, Duration.ofSeconds(5), List.of("answers", "silent", "refused"),
                150, Duration.ofSeconds(1), Duration.ofSeconds(2), Set.of(), List.of(answers, silent, refused));

        assertThat(results).extracting(Load.Result::timeouts).containsExactly(0L, 100L, 0L);
        assertThat(results).extracting(Load.Result::errors).containsExactly(0L, 0L, 100L);
        assertThat(results.get(0).latencies().getTotalCount()).isEqualTo(100);
        assertThat(results.get(1).all().getMinValue() / 1000.0).as("a silent request counts when the run gave up on it")
                .isGreaterThan(5_000);
        assertThat(results.get(2).statuses()).isEqualTo(Map.of(503, 100L));
    }

    @Test
    void aFailureIsATimeoutWhenItOrItsCauseSaysSo() {
        assertThat(Load.isTimeout(new CompletionException(new IOException(new SocketTimeoutException("read")))))
                .isTrue();
        assertThat(Load.isTimeout(new TimeoutException())).isTrue();
        assertThat(Load.isTimeout(new DriverTimeoutException())).as("by its name, as the drivers' are").isTrue();
        assertThat(Load.isTimeout(new CompletionException(new IOException("connection reset")))).isFalse();
    }

    /** Named as the Cassandra driver's is: the drivers' timeouts share no type. */
    private static final class DriverTimeoutException extends RuntimeException {
    }

    private static Percentage within() {
        // HdrHistogram keeps 3 significant digits
        return Percentage.withPercentage(0.2);
    }
}
