package io.profilestore.twins;

import io.profilestore.change.OutboxRecord;
import io.profilestore.change.OutboxWriter;
import io.profilestore.change.RecordTransaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The twin of the outbox: the records for the indexer, in the order they were committed. */
public final class InMemoryOutbox implements OutboxWriter {

    private final List<OutboxRecord> records = new ArrayList<>();

    @Override
    public void append(RecordTransaction transaction, List<OutboxRecord> appended, Duration leaseLeft) {
        InMemoryTransaction.write(transaction, () -> records.addAll(appended));
    }

    @Override
    public boolean appendAgain(List<OutboxRecord> appended) {
        records.addAll(appended);
        return true;
    }

    @Override
    public boolean appendLater(List<OutboxRecord> appended, List<Duration> delays) {
        delays.forEach(delay -> records.addAll(appended));
        return true;
    }

    /** The changes recorded for the indexer, in order. */
    public List<OutboxRecord> records() {
        return List.copyOf(records);
    }
}
