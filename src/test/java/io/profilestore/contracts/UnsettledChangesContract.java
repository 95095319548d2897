package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.profilestore.change.Lease;
import io.profilestore.change.LockTable;
import io.profilestore.change.LockTable.Release;
import io.profilestore.change.OutboxRecord;
import io.profilestore.change.ProfileRow;
import io.profilestore.change.RecordTransactions;
import io.profilestore.change.RowWrite;
import io.profilestore.change.UnsettledChanges;
import io.profilestore.change.UnsettledChanges.Completion;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the write path relies on in the changes that may still land ({@link UnsettledChanges}), held alike against the
 * twin ({@code UnsettledChangesTest}) and PostgreSQL ({@code UnsettledChangesIT}): one is kept only with the record
 * that commits it, found by its holder and named to the next holder of any of its profiles, forgotten by a release
 * after a confirmed write, by {@code forget} or once settled, and left behind ones are listed oldest first. Every
 * case uses fresh ids; what else the tables hold is filtered out.
 */
abstract class UnsettledChangesContract {

    /** The lock table under test, beside the changes (one store in PostgreSQL). */
    abstract LockTable locks();

    abstract UnsettledChanges unsettled();

    abstract RecordTransactions transactions();

    static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123Z");

    final UUID uid = UUID.randomUUID();
    final UUID moved = UUID.randomUUID();
    final UUID written = UUID.randomUUID();
    final UUID writer = UUID.randomUUID();

    /** Every lease a case took: released after it, which forgets what it kept, so that no sweep completes it later. */
    private final List<Lease> taken = new ArrayList<>();

    @AfterEach
    void releaseWhatTheCaseTook() {
        taken.forEach(lease -> locks().release(lease));
    }

    private Lease take(List<String> entities) {
        var lease = locks().acquire(entities);
        taken.add(lease);
        return lease;
    }

    @Test
    void aKeptChangeIsFoundByItsHolderAndNamedToTheNextHolderOfOneOfItsProfiles() {
        var lease = lockAll();
        var completion = completion(lease);
        transactions().inOne(tx -> unsettled().keep(tx, lease, completion));

        var found = unsettled().of(lease.holder()).orElseThrow();
        assertThat(found.pids()).containsExactlyInAnyOrder(written, moved);
        assertThat(found.fence()).isEqualTo(lease.fence());
        assertThat(found.revokedFence()).isNull();
        assertThat(found.partFor()).isNull();
        assertThat(found.completion()).isEqualTo(completion);

        assertThat(unsettled().releaseLeavingItToComplete(lease)).isEqualTo(Release.RELEASED);
        assertThat(unsettled().of(lease.holder())).as("left to complete").isPresent();
        var next = take(List.of(LockTable.profile(moved)));
        assertThat(next.unsettledBy()).containsExactly(lease.holder());
        var more = locks().acquireMore(take(List.of(LockTable.user(UUID.randomUUID()))),
                List.of(LockTable.profile(written)));
        taken.add(more);
        assertThat(more.unsettledBy()).as("locks added to a holder's").containsExactly(lease.holder());
        assertThat(take(List.of(LockTable.profile(UUID.randomUUID()), LockTable.user(uid))).unsettledBy())
                .as("neither of its profiles").isEmpty();

        unsettled().settled(lease.holder());
        assertThat(unsettled().of(lease.holder())).isEmpty();
        locks().release(next);
        assertThat(take(List.of(LockTable.profile(moved))).unsettledBy()).isEmpty();
    }

    @Test
    void aReleaseAfterAConfirmedWriteForgetsIt() {
        var lease = lockAll();
        transactions().inOne(tx -> unsettled().keep(tx, lease, completion(lease)));

        assertThat(locks().release(lease)).isEqualTo(Release.RELEASED);

        assertThat(unsettled().of(lease.holder())).isEmpty();
        assertThat(take(List.of(LockTable.profile(written))).unsettledBy()).isEmpty();
    }

    @Test
    void forgetFreesTheLocksAndNobodyIsToldOfTheChange() {
        var lease = lockAll();
        transactions().inOne(tx -> unsettled().keep(tx, lease, completion(lease)));

        assertThat(unsettled().forget(lease)).isEqualTo(Release.RELEASED);

        assertThat(unsettled().of(lease.holder())).isEmpty();
        assertThat(take(List.of(LockTable.profile(written), LockTable.profile(moved))).unsettledBy()).isEmpty();
        assertThat(unsettled().forget(lease)).as("the locks are another's now").isEqualTo(Release.NOT_OURS);
    }

    @Test
    void nothingIsKeptByARecordThatDoesNotCommit() {
        var lease = lockAll();

        assertThatThrownBy(() -> transactions().inOne(tx -> {
            unsettled().keep(tx, lease, completion(lease));
            throw new IllegalStateException("the record fails after keeping");
        })).hasMessageContaining("the record fails");

        assertThat(unsettled().of(lease.holder())).isEmpty();
    }

    @Test
    void aRevokedChangeNamesTheSettlersFenceUntilItsHolderKeepsAnother() {
        var lease = lockAll();
        transactions().inOne(tx -> unsettled().keep(tx, lease, completion(lease)));
        unsettled().foundInPart(lease.holder());

        transactions().inOne(tx -> unsettled().revoke(tx, lease.holder(), lease.fence() + 7));
        assertThat(unsettled().of(lease.holder())).get()
                .satisfies(found -> assertThat(found.revokedFence()).isEqualTo(lease.fence() + 7))
                .satisfies(found -> assertThat(found.partFor()).as("still found in part").isNotNull());

        var other = new Completion(List.of(new RowWrite.LinkProfile(uid, moved)), List.of(), UUID.randomUUID());
        transactions().inOne(tx -> unsettled().keep(tx, lease, other));
        var found = unsettled().of(lease.holder()).orElseThrow();
        assertThat(found.completion()).isEqualTo(other);
        assertThat(found.pids()).containsExactly(moved);
        assertThat(found.revokedFence()).isNull();
        assertThat(found.partFor()).isNull();
    }

    @Test
    void foundInPartIsTimedFromTheFirstTime() {
        var lease = lockAll();
        transactions().inOne(tx -> unsettled().keep(tx, lease, completion(lease)));

        unsettled().foundInPart(lease.holder());
        await("the change to have been found in part a while ago").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> unsettled().of(lease.holder()).orElseThrow().partFor().toMillis() >= 200);
        unsettled().foundInPart(lease.holder());

        assertThat(unsettled().of(lease.holder()).orElseThrow().partFor()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        unsettled().foundInPart(UUID.randomUUID()); // a holder that kept nothing: nothing to note
    }

    @Test
    void changesLeftBehindAreListedOldestFirst() {
        var first = lockAll();
        transactions().inOne(tx -> unsettled().keep(tx, first, completion(first)));
        var second = take(List.of(LockTable.profile(UUID.randomUUID())));
        var secondPid = UUID.fromString(second.entities().get(0).substring("profile:".length()));
        transactions().inOne(tx -> unsettled().keep(tx, second,
                new Completion(List.of(), List.of(OutboxRecord.profile(secondPid, 1, second.fence())), writer)));
        var ours = List.of(unsettled().of(first.holder()).orElseThrow().pids(), List.of(secondPid));

        await("both to be older than nothing").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> unsettled().leftBehind(Duration.ZERO, 100_000).containsAll(ours));
        assertThat(unsettled().leftBehind(Duration.ZERO, 100_000)).filteredOn(ours::contains)
                .as("the oldest first").containsExactlyElementsOf(ours);
        assertThat(unsettled().leftBehind(Duration.ofHours(1), 100_000)).as("none an hour old")
                .doesNotContainAnyElementsOf(ours);
    }

    /** A change's locks: two profiles and their user. */
    private Lease lockAll() {
        return take(List.of(LockTable.profile(written), LockTable.profile(moved), LockTable.user(uid)));
    }

    /** What a change of two profiles keeps: one written whole, another linked to the user, both recorded. */
    private Completion completion(Lease lease) {
        var row = new ProfileRow(written, uid, uid, 2, "{\"surname\":\"Иванова\"}", CREATED, CREATED, 0, null);
        return new Completion(List.of(new RowWrite.PutProfile(row), new RowWrite.LinkProfile(uid, moved)),
                List.of(OutboxRecord.profile(written, 2, lease.fence()), OutboxRecord.profile(moved, 3, lease.fence())),
                writer);
    }
}
