package io.profilestore.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A write refused or unanswered is tried again, a few times, and only while the run still wants it. */
class RetriedWriteTest {

    final RetriedWrite retried = new RetriedWrite(3, Duration.ofMillis(1));
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger retries = new AtomicInteger();

    /** A write that fails its first {@code failures} attempts, then answers with the attempt's number. */
    CompletableFuture<Integer> failingFirst(int failures) {
        int call = calls.incrementAndGet();
        return call <= failures ? CompletableFuture.failedFuture(new IllegalStateException("timed out " + call))
                : CompletableFuture.completedFuture(call);
    }

    @Test
    void aWriteRefusedOnceIsTriedAgainAndCountsAsWritten() throws Exception {
        var outcome = retried.run(() -> failingFirst(1), () -> true, retries::incrementAndGet);

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(retries).hasValue(1);
    }

    @Test
    void aWriteThatFailsEveryAttemptFailsWithTheLastError() {
        var outcome = retried.run(() -> failingFirst(Integer.MAX_VALUE), () -> true, retries::incrementAndGet);

        assertThatThrownBy(() -> outcome.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("timed out 3");
        assertThat(calls).hasValue(3);
        assertThat(retries).hasValue(2);
    }

    @Test
    void noMoreAttemptsOnceTheRunNoLongerWantsThem() {
        var outcome = retried.run(() -> failingFirst(Integer.MAX_VALUE), () -> false, retries::incrementAndGet);

        assertThatThrownBy(outcome::join).isInstanceOf(CompletionException.class).hasRootCauseMessage("timed out 1");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aWriteThatThrowsInsteadOfFailingItsFutureIsTriedAgainToo() throws Exception {
        var outcome = retried.run(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("no connection");
            }
            return CompletableFuture.completedFuture("written");
        }, () -> true, retries::incrementAndGet);

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isEqualTo("written");
    }
}
