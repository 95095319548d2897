package io.profilestore.twins;

import io.profilestore.change.AuditAppender;
import io.profilestore.change.Origin;
import io.profilestore.change.RecordTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The twin of the audit trail as the write path writes it: who changed which profiles, and how it ended.
 * {@code contracts.RecordTransactionsContract} holds it to {@code audit.AuditLog}.
 */
public final class InMemoryAuditTrail implements AuditAppender {

    /** A change's record: who made it, which profiles, and its outcome once known (null: not yet). */
    public record Record(long id, Origin origin, List<UUID> pids, Boolean applied) {
    }

    private final List<Record> records = new ArrayList<>();
    private final Map<Long, Boolean> outcomes = new HashMap<>();
    private long lastId;

    @Override
    public long append(RecordTransaction transaction, Origin origin, List<UUID> pids) {
        long id = ++lastId;
        InMemoryTransaction.write(transaction, () -> records.add(new Record(id, origin, List.copyOf(pids), null)));
        return id;
    }

    @Override
    public void outcome(Origin origin, long record, boolean applied) {
        if (origin.isRequest()) {
            origin.requestRecords().accept(record);
        } else {
            outcomes.putIfAbsent(record, applied); // once, as the trail appends it: a known outcome is never changed
        }
    }

    /** The committed records, each with its outcome as written so far. */
    public List<Record> records() {
        return records.stream().map(r -> new Record(r.id(), r.origin(), r.pids(), outcomes.get(r.id()))).toList();
    }
}
