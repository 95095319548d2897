package io.profilestore.twins;

import io.profilestore.change.ChangePorts;
import io.profilestore.change.ChangeRunner;
import io.profilestore.change.Origin;
import io.profilestore.change.WritePathProbe;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** Every port of the write path, held in memory: the fast tier's stores, one fresh set per test. */
public final class InMemoryStores {

    public final InMemoryProfileRows rows = new InMemoryProfileRows();
    public final InMemoryLockTable locks = new InMemoryLockTable();
    public final InMemoryRecordTransactions transactions = new InMemoryRecordTransactions();
    public final InMemoryOutbox outbox = new InMemoryOutbox();
    public final InMemoryAuditTrail audit = new InMemoryAuditTrail();

    public ChangePorts ports() {
        return new ChangePorts(rows, locks, transactions, outbox, locks, audit);
    }

    /** The real write path over the twins. */
    public ChangeRunner changeRunner(WritePathProbe probe) {
        return new ChangeRunner(ports(), List.of(Duration.ofSeconds(5)), probe);
    }

    /** The system's own work, as a test's changes say they were made. */
    public static Origin testOrigin() {
        return Origin.system("test", UUID.randomUUID());
    }
}
