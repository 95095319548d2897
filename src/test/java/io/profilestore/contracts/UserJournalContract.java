package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.change.JournalEntry;
import io.profilestore.change.LockTable;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournal.Kind;
import io.profilestore.change.UserJournal.Move;
import io.profilestore.change.UserJournal.Operation;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What merges, unmerges and their recovery rely on in the merge journal ({@link UserJournal}), held alike against the
 * twin ({@code UserJournalTest}) and PostgreSQL ({@code UserJournalIT}): an operation is recorded pending in the
 * change's transaction (or not at all), finished once, abandoned only under its locks; an unmerge undoes its sources
 * unless abandoned; and the walks over merges count what is pending. Every case uses fresh users. Left out: the age
 * of {@link UserJournal#pending} (the twin has no clock and counts every pending operation as old enough), so the
 * cases ask for operations pending for any time at all.
 */
abstract class UserJournalContract {

    abstract UserJournal journal();

    /** The transactions a journal entry is written in. */
    abstract RecordTransactions transactions();

    /** The lock table whose locks {@link UserJournal#abandonWhileHolding} asks about. */
    abstract LockTable locks();

    final UUID request = UUID.randomUUID();

    @Test
    void aRecordedOperationIsPendingUntilItIsFinishedOnce() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        var merge = merge(target, source);
        assertThat(journal().isPending(merge.opId())).isFalse();

        record(journal().recordMerge(merge, List.of(), request));

        var recorded = new Operation(merge.opId(), Kind.MERGE, target, List.of(source), null, request);
        assertThat(journal().isPending(merge.opId())).isTrue();
        assertThat(journal().pending(Duration.ZERO)).contains(recorded);
        assertThat(journal().pendingOn(List.of(UUID.randomUUID(), source), null)).isTrue();
        assertThat(journal().pendingOn(List.of(target), merge.opId())).as("but for itself").isFalse();
        assertThat(journal().pendingOn(List.of(UUID.randomUUID()), null)).isFalse();

        assertThat(journal().finish(merge.opId(), true)).isTrue();
        assertThat(journal().finish(merge.opId(), true)).as("finished already").isFalse();
        assertThat(journal().finish(merge.opId(), false)).isFalse();
        assertThat(journal().isPending(merge.opId())).isFalse();
        assertThat(journal().pending(Duration.ZERO)).doesNotContain(recorded);
        assertThat(journal().pendingOn(List.of(target, source), null)).isFalse();
        assertThat(journal().finish(UUID.randomUUID(), true)).as("never recorded").isFalse();
    }

    @Test
    void nothingIsJournaledWhenTheTransactionFails() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        var merge = merge(target, source);
        var move = new Move(UUID.randomUUID(), source, source, target, 2);

        assertThatThrownBy(() -> transactions().inOne(transaction -> {
            journal().recordMerge(merge, List.of(move), request).write(transaction);
            throw new IllegalStateException("the change was not recorded");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(journal().isPending(merge.opId())).isFalse();
        assertThat(journal().moves(merge.opId())).isEmpty();
        assertThat(journal().pendingOn(List.of(target, source), null)).isFalse();
        assertThat(journal().everMergedInto(target)).isEmpty();
        assertThat(journal().finish(merge.opId(), true)).isFalse();
    }

    @Test
    void movesAreWhatWasRecordedAndAResumeReplacesThem() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        UUID p1 = UUID.randomUUID();
        UUID p2 = UUID.randomUUID();
        UUID p3 = UUID.randomUUID();
        var merge = merge(target, source);
        var first = new Move(p1, source, source, target, 2);
        var second = new Move(p2, source, UUID.randomUUID(), target, 7);
        record(journal().recordMerge(merge, List.of(first, second), request));
        assertThat(journal().moves(merge.opId())).containsExactlyInAnyOrder(first, second);

        var again = new Move(p1, source, source, target, 5);
        var third = new Move(p3, source, source, target, 1);
        record(journal().resumedMoves(merge.opId(), List.of(again, third), List.of(p2)));

        assertThat(journal().moves(merge.opId())).containsExactlyInAnyOrder(again, third);
        assertThat(journal().moves(UUID.randomUUID())).isEmpty();
    }

    @Test
    void theMergeToUndoIsTheLatestAppliedMergeOfTheSourceIntoTheTarget() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID elsewhere = UUID.randomUUID();
        var m1 = applied(merge(target, source));
        var m2 = applied(merge(target, source, second));
        var pending = merge(target, source);
        record(journal().recordMerge(pending, List.of(), request));
        var abandoned = merge(target, source);
        record(journal().recordMerge(abandoned, List.of(), request));
        journal().finish(abandoned.opId(), false);
        var other = applied(merge(elsewhere, source));

        assertThat(journal().mergeToUndo(target, source, null)).contains(recorded(m2));
        assertThat(journal().mergeToUndo(target, source, m1.opId())).contains(recorded(m1));
        assertThat(journal().mergeToUndo(target, null, m1.opId())).contains(recorded(m1));
        assertThat(journal().mergeToUndo(target, second, m1.opId())).as("not a source of m1").isEmpty();
        assertThat(journal().mergeToUndo(target, source, pending.opId())).as("pending").isEmpty();
        assertThat(journal().mergeToUndo(target, source, abandoned.opId())).as("abandoned").isEmpty();
        assertThat(journal().mergeToUndo(elsewhere, source, null)).contains(recorded(other));
        assertThat(journal().mergeToUndo(source, target, null)).isEmpty();
    }

    @Test
    void anUnmergeUndoesItsSourcesUnlessItIsAbandoned() {
        UUID target = UUID.randomUUID();
        UUID s1 = UUID.randomUUID();
        UUID s2 = UUID.randomUUID();
        var merge = applied(merge(target, s1, s2));

        var failed = unmerge(merge, s1);
        record(journal().recordUnmerge(failed, List.of(new Move(UUID.randomUUID(), target, s1, s1, 3)), request));
        assertThat(journal().undone(merge.opId())).as("while it is pending").containsExactly(s1);
        assertThat(journal().finish(failed.opId(), false)).isTrue();
        assertThat(journal().undone(merge.opId())).as("abandoned").isEmpty();

        applied(unmerge(merge, s1));
        applied(unmerge(merge, s2));
        assertThat(journal().undone(merge.opId())).containsExactlyInAnyOrder(s1, s2);
        assertThat(journal().undone(UUID.randomUUID())).isEmpty();
    }

    @Test
    void anOperationIsAbandonedOnlyWhileItsLocksAreHeld() {
        UUID target = UUID.randomUUID();
        UUID source = UUID.randomUUID();
        var merge = applied(merge(target, source));
        var entities = List.of(LockTable.user(target), LockTable.user(source));
        var lease = locks().acquire(entities);
        var unmerge = unmerge(merge, source);
        record(journal().recordUnmerge(unmerge, List.of(), request));
        locks().release(lease);

        assertThat(journal().abandonWhileHolding(unmerge.opId(), lease)).as("after its release").isFalse();
        assertThat(journal().isPending(unmerge.opId())).isTrue();

        var again = locks().acquire(entities);
        assertThat(journal().abandonWhileHolding(merge.opId(), again)).as("applied already").isFalse();
        assertThat(journal().abandonWhileHolding(unmerge.opId(), again)).isTrue();
        assertThat(journal().isPending(unmerge.opId())).isFalse();
        assertThat(journal().undone(merge.opId())).isEmpty();
        assertThat(journal().abandonWhileHolding(unmerge.opId(), again)).as("abandoned already").isFalse();
        assertThat(journal().finish(unmerge.opId(), true)).isFalse();
        locks().release(again);
    }

    @Test
    void everMergedIntoFollowsMergesAppliedOrPendingAndNotUndoneByAnAppliedUnmerge() {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        UUID c = UUID.randomUUID();
        UUID d = UUID.randomUUID();
        UUID e = UUID.randomUUID();
        UUID f = UUID.randomUUID();
        applied(merge(a, b));
        record(journal().recordMerge(merge(b, c), List.of(), request));
        var intoD = merge(a, d);
        record(journal().recordMerge(intoD, List.of(), request));
        journal().finish(intoD.opId(), false);
        applied(unmerge(applied(merge(a, e)), e));
        record(journal().recordUnmerge(unmerge(applied(merge(a, f)), f), List.of(), request));

        assertThat(journal().everMergedInto(a)).containsExactlyInAnyOrder(b, c, f);
        assertThat(journal().everMergedInto(b)).containsExactly(c);
        assertThat(journal().everMergedInto(f)).isEmpty();
    }

    static Operation merge(UUID target, UUID... sources) {
        return new Operation(UUID.randomUUID(), Kind.MERGE, target, List.of(sources), null);
    }

    static Operation unmerge(Operation merge, UUID... sources) {
        return new Operation(UUID.randomUUID(), Kind.UNMERGE, merge.target(), List.of(sources), merge.opId());
    }

    /** The operation as the journal gives it back: with the id of the request that recorded it. */
    Operation recorded(Operation operation) {
        return new Operation(operation.opId(), operation.kind(), operation.target(), operation.sources(),
                operation.mergeId(), request);
    }

    /** Recorded and finished as applied. */
    Operation applied(Operation operation) {
        record(operation.kind() == Kind.MERGE ? journal().recordMerge(operation, List.of(), request)
                : journal().recordUnmerge(operation, List.of(), request));
        assertThat(journal().finish(operation.opId(), true)).isTrue();
        return operation;
    }

    void record(JournalEntry entry) {
        transactions().inOne(entry::write);
    }
}
