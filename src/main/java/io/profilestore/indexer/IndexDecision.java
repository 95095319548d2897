package io.profilestore.indexer;

import io.profilestore.events.ChangeEvent;
import java.time.Duration;
import java.time.Instant;

/**
 * What the indexer does with a change, given what Cassandra holds of its profile now. A change is recorded (and
 * its event may be relayed) before its Cassandra write lands; indexing the row read before that and acknowledging
 * the event would leave the index wrong for good. So the indexer waits until the row shows the change (its write
 * time has reached the change's fence; for an erase, the row is gone) or the writer's lease has run out: after
 * that the write has landed, failed, or lost to a newer change, and what Cassandra holds is the answer.
 */
public sealed interface IndexDecision {

    /** Index this document of the profile, at its row's write time. */
    record Put(ProfileDocuments.Indexable document) implements IndexDecision {
    }

    /**
     * Remove the profile from the index, at this external version: an erase's own fence; for a change whose write
     * never showed, just below its fence, so that the write, should it land after all, still wins.
     */
    record Remove(Long version) implements IndexDecision {
    }

    /** The change's write has not landed and its writer may still write it: look again shortly. */
    record Wait() implements IndexDecision {
    }

    static IndexDecision of(ChangeEvent change, ProfileDocuments.Indexable current, Instant now,
            Duration clockTolerance) {
        Long fence = change.fence();
        boolean landed = fence == null // a message from before fences: nothing to wait for
                || (change.erased() ? current == null || current.written() >= fence
                        : current != null && current.written() >= fence);
        boolean leaseOver = change.leaseUntil() == null || now.isAfter(change.leaseUntil().plus(clockTolerance));
        if (!landed && !leaseOver) {
            return new Wait();
        }
        if (current != null) {
            return new Put(current);
        }
        return new Remove(fence == null ? null : change.erased() ? fence : fence - 1);
    }
}
