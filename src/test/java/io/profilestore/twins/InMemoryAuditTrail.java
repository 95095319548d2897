package io.profilestore.twins;

import io.profilestore.audit.ChangeOutcomes;
import io.profilestore.change.AuditAppender;
import io.profilestore.change.Origin;
import io.profilestore.change.RecordTransaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The twin of the audit trail's changes as the write path writes them (who changed which profiles, and how it
 * ended), and as the audit filter completes them (the status a request's changes were answered with).
 * {@code contracts.RecordTransactionsContract} holds it to {@code audit.AuditLog}.
 */
public final class InMemoryAuditTrail implements AuditAppender, ChangeOutcomes {

    /**
     * A change's record: who made it, which profiles, its outcome once known (null: not yet), and the status its
     * request was answered with (null: not yet, or the system's own work).
     */
    public record Record(long id, Origin origin, List<UUID> pids, Boolean applied, Integer status) {
    }

    private final List<Record> records = new ArrayList<>();
    private final Map<Long, Boolean> outcomes = new HashMap<>();
    private final Map<Long, Integer> statuses = new HashMap<>();
    private long lastId;

    @Override
    public long append(RecordTransaction transaction, Origin origin, List<UUID> pids) {
        long id = ++lastId;
        InMemoryTransaction.write(transaction, () -> records.add(new Record(id, origin, List.copyOf(pids), null, null)));
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

    @Override
    public void recordOutcome(List<Long> ids, int status) {
        ids.forEach(id -> statuses.putIfAbsent(id, status)); // once, as the trail appends it
    }

    /** The committed records, each with its outcome and status as written so far. */
    public List<Record> records() {
        return records.stream()
                .map(r -> new Record(r.id(), r.origin(), r.pids(), outcomes.get(r.id()), statuses.get(r.id())))
                .toList();
    }
}
