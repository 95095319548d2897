package io.profilestore.indexer;

import com.codahale.metrics.Timer;
import io.profilestore.elasticsearch.SearchIndex;
import io.profilestore.events.ChangeEvent;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One attempt to bring the index up to Cassandra for a batch of changed profiles: reads each profile as Cassandra
 * holds it now, decides what its newest event calls for ({@link IndexDecision}), and writes it (or its removal) to
 * every index that takes writes, in one bulk. Retrying a failed attempt is the caller's.
 */
final class BatchWriter {

    private static final Logger LOG = LoggerFactory.getLogger(BatchWriter.class);

    /** What a batch came to: profiles whose writes are still awaited, and those Elasticsearch refused for good. */
    record Outcome(Set<UUID> waiting, Map<UUID, String> rejected) {
    }

    private final ProfileDocuments documents;
    private final SearchIndex index;
    private final Duration leaseClockTolerance;
    private final Timer bulkLatency;

    BatchWriter(ProfileDocuments documents, SearchIndex index, Duration leaseClockTolerance, Timer bulkLatency) {
        this.documents = documents;
        this.index = index;
        this.leaseClockTolerance = leaseClockTolerance;
        this.bulkLatency = bulkLatency;
    }

    /**
     * @param newest the newest event of each profile in the batch, in the order to write them
     * @throws IOException when Elasticsearch cannot be reached or takes no write now: nothing is known to be written
     */
    Outcome write(Map<UUID, ChangeEvent> newest) throws IOException {
        // taken before the read: a slow read must not eat into the writer's lease tolerance
        var now = Instant.now();
        var current = documents.current(newest.keySet());
        var targets = index.writeTargets();
        var rejected = new HashMap<UUID, String>(current.unreadable());
        var waitingFor = new HashSet<UUID>();
        var writes = new ArrayList<SearchIndex.Write>();
        newest.forEach((pid, event) -> {
            if (rejected.containsKey(pid)) {
                return;
            }
            var decision = IndexDecision.of(event, current.documents().get(pid), now, leaseClockTolerance);
            if (decision instanceof IndexDecision.Wait) {
                waitingFor.add(pid);
                return;
            }
            for (String target : targets) {
                writes.add(decision instanceof IndexDecision.Put put
                        ? new SearchIndex.Put(target, pid, put.document().document(), put.document().written())
                        : new SearchIndex.Remove(target, pid, ((IndexDecision.Remove) decision).version()));
            }
        });
        List<SearchIndex.Result> results = List.of();
        if (!writes.isEmpty()) {
            try (var timing = bulkLatency.time()) {
                results = index.bulk(writes);
            }
        }
        for (var result : results) {
            LOG.debug("indexed {} in {}: {}", result.write().pid(), result.write().index(), result.outcome());
            if (result.outcome() == SearchIndex.Outcome.REJECTED) {
                // the error type only: Elasticsearch's reasons quote the document's values
                String reason = result.reason();
                rejected.put(result.write().pid(), reason == null ? "rejected" : reason.split(":", 2)[0]);
            }
        }
        return new Outcome(waitingFor, rejected);
    }
}
