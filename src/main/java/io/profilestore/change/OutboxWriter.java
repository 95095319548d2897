package io.profilestore.change;

import java.time.Duration;
import java.util.List;

/**
 * The outbox as the write path fills it: the record of each change for the indexer, read by the relay. The port
 * {@code postgres.PostgresOutbox} implements.
 */
public interface OutboxWriter {

    /**
     * Records the changes in the change's own transaction; the indexer waits up to {@code leaseLeft} for their write
     * to land before it reads Cassandra.
     */
    void append(RecordTransaction transaction, List<OutboxRecord> records, Duration leaseLeft);

    /**
     * Records changes once more, for a write that landed after its lease ran out: the indexer, which waits for a write
     * no longer than its lease, may have indexed the row as it was before. Outside any lock (the records only make the
     * indexer read Cassandra again); false if PostgreSQL did not take them.
     */
    boolean appendAgain(List<OutboxRecord> records);

    /**
     * Records changes once more after each delay, for a write Cassandra did not confirm: it may land later, when no
     * record of it is left for the indexer. Outside any lock; false if PostgreSQL did not take them.
     */
    boolean appendLater(List<OutboxRecord> records, List<Duration> delays);
}
