package io.profilestore.contracts;

import io.profilestore.change.AuditAppender;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.OutboxWriter;
import io.profilestore.change.RecordTransactions;
import io.profilestore.twins.InMemoryStores;
import java.util.List;
import java.util.UUID;

/** The contract of the transaction that records a change, its outbox and its audit trail, held against the twins. */
class RecordTransactionsTest extends RecordTransactionsContract {

    private final InMemoryStores stores = new InMemoryStores();

    @Override
    RecordTransactions transactions() {
        return stores.transactions;
    }

    @Override
    OutboxWriter outbox() {
        return stores.outbox;
    }

    @Override
    AuditAppender audit() {
        return stores.audit;
    }

    @Override
    List<OutboxRecord> outboxOf(UUID pid) {
        return stores.outbox.records().stream().filter(record -> record.entityId().equals(pid)).toList();
    }

    @Override
    List<Audited> auditOf(UUID pid) {
        return stores.audit.records().stream().filter(record -> record.pids().contains(pid))
                .map(record -> new Audited(record.origin().actor(), record.origin().actorKind(), record.origin().roles(),
                        record.origin().action(), record.origin().request(), record.pids(), record.origin().writer(),
                        record.applied()))
                .toList();
    }
}
