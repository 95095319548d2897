package io.profilestore.indexer;

import static org.assertj.core.api.Assertions.assertThat;

import io.profilestore.events.ChangeEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** When the indexer indexes a change, removes its profile, or waits for its write (no stack needed). */
class IndexDecisionTest {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration TOLERANCE = Duration.ofSeconds(2);
    static final long FENCE = 1_000_000L;

    @Test
    void aChangeWhoseRowIsOlderThanItsFenceIsWaitedForWhileItsLeaseLasts() {
        var change = change(false, NOW.plusSeconds(3));

        assertThat(IndexDecision.of(change, row(FENCE - 1), NOW, TOLERANCE)).isInstanceOf(IndexDecision.Wait.class);
        assertThat(IndexDecision.of(change, null, NOW, TOLERANCE)).as("a create not landed yet")
                .isInstanceOf(IndexDecision.Wait.class);
    }

    @Test
    void aChangeWhoseRowShowsItIsIndexedAtOnce() {
        var change = change(false, NOW.plusSeconds(3));

        assertThat(IndexDecision.of(change, row(FENCE), NOW, TOLERANCE)).isEqualTo(new IndexDecision.Put(row(FENCE)));
        assertThat(IndexDecision.of(change, row(FENCE + 5), NOW, TOLERANCE)).as("a newer change stands")
                .isEqualTo(new IndexDecision.Put(row(FENCE + 5)));
    }

    @Test
    void onceTheLeaseAndTheToleranceAreOverWhatCassandraHoldsIsIndexed() {
        var change = change(false, NOW.minusSeconds(3));

        assertThat(IndexDecision.of(change, row(FENCE - 1), NOW, TOLERANCE)).isEqualTo(new IndexDecision.Put(row(FENCE - 1)));
        assertThat(IndexDecision.of(change, null, NOW, TOLERANCE))
                .as("a write that never showed: removed just below its fence, so that it still wins should it land")
                .isEqualTo(new IndexDecision.Remove(FENCE - 1));
        assertThat(IndexDecision.of(change(false, NOW.minusSeconds(1)), row(FENCE - 1), NOW, TOLERANCE))
                .as("within the clock tolerance").isInstanceOf(IndexDecision.Wait.class);
    }

    @Test
    void anEraseIsDoneWhenTheRowIsGoneAndWaitedForWhileItStands() {
        assertThat(IndexDecision.of(change(true, NOW.plusSeconds(3)), null, NOW, TOLERANCE))
                .isEqualTo(new IndexDecision.Remove(FENCE));
        assertThat(IndexDecision.of(change(true, NOW.plusSeconds(3)), row(FENCE - 1), NOW, TOLERANCE))
                .isInstanceOf(IndexDecision.Wait.class);
        assertThat(IndexDecision.of(change(true, NOW.minusSeconds(3)), row(FENCE - 1), NOW, TOLERANCE))
                .as("an erase that failed: the profile stays").isEqualTo(new IndexDecision.Put(row(FENCE - 1)));
    }

    @Test
    void aMessageWithoutFenceOrLeaseIsIndexedAsCassandraHoldsIt() {
        var old = new ChangeEvent("profile", UUID.randomUUID(), 2, null, NOW);

        assertThat(IndexDecision.of(old, row(FENCE), NOW, TOLERANCE)).isEqualTo(new IndexDecision.Put(row(FENCE)));
        assertThat(IndexDecision.of(old, null, NOW, TOLERANCE)).isEqualTo(new IndexDecision.Remove(null));
    }

    private static ChangeEvent change(boolean erased, Instant leaseUntil) {
        return new ChangeEvent("profile", UUID.randomUUID(), 2, FENCE, NOW.minusSeconds(1), erased, leaseUntil);
    }

    private static ProfileDocuments.Indexable row(long written) {
        return new ProfileDocuments.Indexable(null, written);
    }
}
