package io.profilestore.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A write refused or unanswered is tried again, a few times, after growing pauses, only while the run wants it. */
class RetriedWriteTest {

    final RetriedWrite retried = new RetriedWrite(3, Duration.ofMillis(1));
    final AtomicInteger calls = new AtomicInteger();
    final List<String> retriedAfter = Collections.synchronizedList(new ArrayList<>());

    /** A write that fails its first {@code failures} attempts, then answers with the attempt's number. */
    CompletableFuture<Integer> failingFirst(int failures) {
        int call = calls.incrementAndGet();
        return call <= failures ? CompletableFuture.failedFuture(new IllegalStateException("timed out " + call))
                : CompletableFuture.completedFuture(call);
    }

    void retry(Throwable failure) {
        retriedAfter.add(failure.getMessage());
    }

    @Test
    void aWriteRefusedOnceIsTriedAgainAndCountsAsWritten() throws Exception {
        var outcome = retried.run(() -> failingFirst(1), () -> true, this::retry);

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(retriedAfter).as("each retry is given the failure it follows").containsExactly("timed out 1");
    }

    @Test
    void aWriteThatFailsEveryAttemptFailsWithTheLastError() {
        var outcome = retried.run(() -> failingFirst(Integer.MAX_VALUE), () -> true, this::retry);

        assertThatThrownBy(() -> outcome.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("timed out 3");
        assertThat(calls).hasValue(3);
        assertThat(retriedAfter).containsExactly("timed out 1", "timed out 2");
    }

    @Test
    void eachPauseIsTwiceTheOneBefore() throws Exception {
        // 50 ms, then 100 ms: three attempts take 150 ms at least (only the lower bound: a busy machine is slower)
        var pausing = new RetriedWrite(3, Duration.ofMillis(50));
        long started = System.nanoTime();

        pausing.run(() -> failingFirst(2), () -> true, this::retry).get(5, TimeUnit.SECONDS);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
    }

    @Test
    void theImportTriesFiveTimesOverFifteenSeconds() {
        assertThat(RetriedWrite.IMPORT).usingRecursiveComparison()
                .isEqualTo(new RetriedWrite(5, Duration.ofSeconds(1)));
    }

    @Test
    void noMoreAttemptsOnceTheRunNoLongerWantsThem() {
        var outcome = retried.run(() -> failingFirst(Integer.MAX_VALUE), () -> false, this::retry);

        assertThatThrownBy(outcome::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("timed out 1");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aRunThatFailedDuringThePauseGetsNoRetry() {
        // still wanted when the attempt fails; another row fails for good while this one waits to be tried again
        var asked = new AtomicInteger();
        var pausing = new RetriedWrite(3, Duration.ofMillis(20));

        var outcome = pausing.run(() -> failingFirst(Integer.MAX_VALUE), () -> asked.incrementAndGet() == 1,
                this::retry);

        assertThatThrownBy(() -> outcome.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("timed out 1");
        assertThat(calls).hasValue(1);
        assertThat(retriedAfter).isEmpty();
    }

    @Test
    void aWriteThatThrowsInsteadOfFailingItsFutureIsTriedAgainToo() throws Exception {
        var outcome = retried.run(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("no connection");
            }
            return CompletableFuture.completedFuture("written");
        }, () -> true, this::retry);

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isEqualTo("written");
        assertThat(retriedAfter).containsExactly("no connection");
    }

    @Test
    void whateverThrowsTheOutcomeCompletes() {
        // an Error, no future at all, or the run's own check throwing: the caller's permit must come back
        var error = retried.run(() -> {
            throw new AssertionError("broken");
        }, () -> true, this::retry);
        var noFuture = retried.<String>run(() -> null, () -> true, this::retry);
        var brokenCheck = retried.run(() -> failingFirst(Integer.MAX_VALUE), () -> {
            throw new IllegalStateException("check broke");
        }, this::retry);

        assertThatThrownBy(() -> error.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("broken");
        assertThatThrownBy(() -> noFuture.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("the write returned no future");
        assertThatThrownBy(() -> brokenCheck.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("check broke");
    }
}
