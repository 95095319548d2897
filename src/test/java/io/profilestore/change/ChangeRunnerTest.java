package io.profilestore.change;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.change.RowWrite.PutProfile;
import io.profilestore.twins.InMemoryStores;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The write path's one transaction, over the in-memory twins: what a change records (outbox, audit record) commits
 * with the renewal of its locks or not at all, and who made the change travels as its {@link Origin}.
 */
class ChangeRunnerTest {

    private final InMemoryStores stores = new InMemoryStores();
    private final ChangeRunner changes = stores.changeRunner(WritePathProbe.NONE);

    @Test
    void aChangeIsRecordedWithItsAuditRecordAndWrittenAsItsOrigin() {
        var origin = Origin.system("test", UUID.randomUUID());
        var pid = UUID.randomUUID();

        changes.underLock(origin, List.of(LockTable.profile(pid)), change -> {
            commitNewProfile(change, pid);
            return null;
        });

        assertThat(stores.outbox.records()).extracting(OutboxRecord::entityId).containsExactly(pid);
        assertThat(stores.audit.records()).singleElement().satisfies(record -> {
            assertThat(record.origin()).isEqualTo(origin);
            assertThat(record.pids()).containsExactly(pid);
            assertThat(record.applied()).as("the system's own change gets its outcome at once").isTrue();
        });
        assertThat(stores.rows.find(pid)).get().extracting(ProfileRow::writtenBy).isEqualTo(origin.writer());
    }

    @Test
    void aRequestsChangeLeavesItsOutcomeToTheRequest() {
        var recorded = new ArrayList<Long>();
        var origin = new Origin(UUID.randomUUID(), "someone", "JWT", List.of("editor"), "PUT /v1/profiles/{pid}",
                "/v1/profiles/x", recorded::add);
        var pid = UUID.randomUUID();

        changes.underLock(origin, List.of(LockTable.profile(pid)), change -> {
            commitNewProfile(change, pid);
            return null;
        });

        assertThat(stores.audit.records()).singleElement().satisfies(record -> {
            assertThat(recorded).containsExactly(record.id());
            assertThat(record.applied()).as("the audit filter writes the answer's status").isNull();
        });
    }

    @Test
    void aChangeWhoseLocksRanOutRecordsNothingAndWritesNothing() {
        var pid = UUID.randomUUID();

        assertThatThrownBy(() -> changes.underLock(InMemoryStores.testOrigin(), List.of(LockTable.profile(pid)),
                change -> {
                    stores.locks.takenOver(change.lease());
                    commitNewProfile(change, pid);
                    return null;
                })).isInstanceOf(LeaseLostException.class);

        assertThat(stores.outbox.records()).isEmpty();
        assertThat(stores.audit.records()).isEmpty();
        assertThat(stores.rows.find(pid)).isEmpty();
    }

    @Test
    void aCommitPostgresqlRefusedRecordsNothingAndWritesNothing() {
        var pid = UUID.randomUUID();
        stores.transactions.failNextCommit(new PostgresUnavailableException("refused", null));

        assertThatThrownBy(() -> changes.underLock(InMemoryStores.testOrigin(), List.of(LockTable.profile(pid)),
                change -> {
                    commitNewProfile(change, pid);
                    return null;
                })).isInstanceOf(PostgresUnavailableException.class);

        assertThat(stores.outbox.records()).isEmpty();
        assertThat(stores.audit.records()).isEmpty();
        assertThat(stores.rows.find(pid)).isEmpty();
        assertThat(stores.locks.isFree(LockTable.profile(pid))).as("released").isTrue();
    }

    private static void commitNewProfile(ChangeRunner.Change change, UUID pid) {
        var uid = UUID.randomUUID();
        long fence = change.lease().fence();
        var row = new ProfileRow(pid, uid, uid, 1, "{}", Instant.now(), Instant.now(), fence);
        change.commit(List.of(OutboxRecord.profile(pid, 1, fence)), List.of(new PutProfile(row)));
    }
}
