package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.change.AuditAppender;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.Origin;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.OutboxWriter;
import io.profilestore.change.RecordTransactions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the write path relies on in the transaction that records a change ({@link RecordTransactions}) and in the
 * ports that write in it, the outbox ({@link OutboxWriter}) and the audit trail ({@link AuditAppender}), held alike
 * against the twins ({@code RecordTransactionsTest}) and PostgreSQL ({@code RecordTransactionsIT}): what the work
 * writes is seen once it commits and not before, and not at all when the work throws. Each case reads back only the
 * records of its own fresh pids. Left out: when the relay takes a record appended later ({@code not_before}; the twin
 * has no clock) and a commit PostgreSQL did not answer (the twin's {@code failNextCommit} stands for it).
 */
abstract class RecordTransactionsContract {

    /** An audit record as read back: who, what, which profiles, the id its rows carry, and the outcome if known. */
    record Audited(String actor, String actorKind, List<String> roles, String action, String request, List<UUID> pids,
            UUID writer, Boolean applied) {
    }

    abstract RecordTransactions transactions();

    abstract OutboxWriter outbox();

    abstract AuditAppender audit();

    /** The committed outbox records of this profile, in the order they were recorded. */
    abstract List<OutboxRecord> outboxOf(UUID pid);

    /** The committed audit records naming this profile, oldest first. */
    abstract List<Audited> auditOf(UUID pid);

    /** The profiles the case recorded changes of (an adapter may clear their records afterwards). */
    final List<UUID> pids = new ArrayList<>();
    final Origin system = Origin.system("contract", UUID.randomUUID());

    @Test
    void whatTheWorkWritesIsSeenOnlyOnceItCommits() {
        UUID pid = newPid();
        UUID other = newPid();
        var record = OutboxRecord.profile(pid, 1, 1_000);

        transactions().inOne(transaction -> {
            outbox().append(transaction, List.of(record), Duration.ofSeconds(5));
            audit().append(transaction, system, List.of(pid, other));
            assertThat(outboxOf(pid)).as("before the commit").isEmpty();
            assertThat(auditOf(pid)).as("before the commit").isEmpty();
        });

        assertThat(outboxOf(pid)).containsExactly(record);
        assertThat(auditOf(other)).containsExactly(new Audited("system", "SYSTEM", List.of(), "contract", "",
                List.of(pid, other), system.writer(), null));
    }

    @Test
    void nothingOfAWorkThatThrowsIsCommitted() {
        UUID pid = newPid();
        var failure = new IllegalStateException("the work failed");
        long[] id = new long[1];

        assertThatThrownBy(() -> transactions().inOne(transaction -> {
            outbox().append(transaction, List.of(OutboxRecord.profile(pid, 1, 1_000)), Duration.ofSeconds(5));
            id[0] = audit().append(transaction, system, List.of(pid));
            throw failure;
        })).isSameAs(failure);
        audit().outcome(system, id[0], true);

        assertThat(outboxOf(pid)).isEmpty();
        assertThat(auditOf(pid)).as("an outcome without its record writes nothing").isEmpty();
    }

    @Test
    void aLostLeaseComesOutAsItIsAndCommitsNothing() {
        UUID pid = newPid();
        var lost = new LeaseLostException("the locks ran out", false);

        assertThatThrownBy(() -> transactions().inOne(transaction -> {
            audit().append(transaction, system, List.of(pid));
            outbox().append(transaction, List.of(OutboxRecord.profileErased(pid, 2, 2_000)), Duration.ofSeconds(5));
            throw lost;
        })).isSameAs(lost);

        assertThat(outboxOf(pid)).isEmpty();
        assertThat(auditOf(pid)).isEmpty();
    }

    @Test
    void eachTransactionCommitsOnItsOwnAndRecordsKeepTheirOrder() {
        UUID pid = newPid();
        var first = OutboxRecord.profile(pid, 1, 1_000);
        var second = OutboxRecord.profile(pid, 2, 2_000);
        var erased = OutboxRecord.profileErased(pid, 3, 3_000);
        var lost = new OutboxRecord(OutboxRecord.PROFILE, pid, 9, 9_000, false);

        transactions().inOne(transaction -> {
            outbox().append(transaction, List.of(first, second), Duration.ofSeconds(5));
            audit().append(transaction, system, List.of(pid));
        });
        assertThatThrownBy(() -> transactions().inOne(transaction -> {
            outbox().append(transaction, List.of(lost), Duration.ofSeconds(5));
            throw new IllegalStateException("rolled back");
        })).isInstanceOf(IllegalStateException.class);
        transactions().inOne(transaction -> {
            outbox().append(transaction, List.of(erased), Duration.ZERO);
            audit().append(transaction, system, List.of(pid));
        });

        assertThat(outboxOf(pid)).containsExactly(first, second, erased);
        assertThat(auditOf(pid)).hasSize(2);
    }

    @Test
    void appendAgainAndAppendLaterRecordOutsideAnyTransaction() {
        UUID pid = newPid();
        var again = OutboxRecord.profile(pid, 4, 4_000);
        var later = OutboxRecord.profileErased(pid, 5, 5_000);

        assertThat(outbox().appendAgain(List.of(again))).isTrue();
        assertThat(outboxOf(pid)).containsExactly(again);

        assertThat(outbox().appendLater(List.of(later), List.of(Duration.ofSeconds(1), Duration.ofSeconds(30))))
                .isTrue();
        assertThat(outboxOf(pid)).as("once for each delay").containsExactly(again, later, later);
    }

    @Test
    void theSystemsOwnChangeGetsItsOutcomeOnce() {
        UUID applied = newPid();
        UUID refused = newPid();
        long[] ids = new long[2];
        transactions().inOne(transaction -> {
            ids[0] = audit().append(transaction, system, List.of(applied));
            ids[1] = audit().append(transaction, system, List.of(refused));
        });

        audit().outcome(system, ids[0], true);
        audit().outcome(system, ids[1], false);
        audit().outcome(system, ids[0], false);

        assertThat(auditOf(applied)).singleElement().extracting(Audited::applied).as("a known outcome stays").isEqualTo(true);
        assertThat(auditOf(refused)).singleElement().extracting(Audited::applied).isEqualTo(false);
    }

    @Test
    void aRequestsChangeLeavesItsOutcomeToTheRequest() {
        UUID pid = newPid();
        var handed = new ArrayList<Long>();
        var request = new Origin(UUID.randomUUID(), "someone", "JWT", List.of("editor", "reader"),
                "PATCH /v1/profiles/{pid}", "/v1/profiles/" + pid, handed::add);
        long[] id = new long[1];
        transactions().inOne(transaction -> id[0] = audit().append(transaction, request, List.of(pid)));

        audit().outcome(request, id[0], true);

        assertThat(handed).containsExactly(id[0]);
        assertThat(auditOf(pid)).containsExactly(new Audited("someone", "JWT", List.of("editor", "reader"),
                "PATCH /v1/profiles/{pid}", "/v1/profiles/" + pid, List.of(pid), request.writer(), null));
    }

    UUID newPid() {
        UUID pid = UUID.randomUUID();
        pids.add(pid);
        return pid;
    }
}
