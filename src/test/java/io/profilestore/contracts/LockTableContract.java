package io.profilestore.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.Lease;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.LockTable;
import io.profilestore.change.LockTable.Release;
import io.profilestore.change.RecordTransactions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What the write path relies on in the lock table ({@link LockTable}), held alike against the twin
 * ({@code LockTableTest}) and PostgreSQL ({@code LockTableIT}): all the entities or none, a held one refused at once
 * and named, fences that only grow, and a holder whose lease ran out learns it when it renews, raises its fence or
 * releases. Every case locks entities of fresh ids. The lease's length is left out (the twin has no clock): a lease
 * runs out here when {@link #runOut} says so.
 */
abstract class LockTableContract {

    /** The lock table under test: the same one for every call of a case. */
    abstract LockTable locks();

    /** The transactions {@link LockTable#renew} runs in. */
    abstract RecordTransactions transactions();

    /** These locks of the holder run out: any other request may take them now, and the holder may no longer write. */
    abstract void runOut(Lease held);

    final String a = LockTable.profile(UUID.randomUUID());
    final String b = LockTable.user(UUID.randomUUID());
    final String c = LockTable.profile(UUID.randomUUID());

    @Test
    void takesAllTheEntitiesOrNone() {
        var holdsB = locks().acquire(List.of(b));

        assertThatThrownBy(() -> locks().acquire(List.of(a, b, c))).isInstanceOfSatisfying(EntitiesLockedException.class,
                e -> assertThat(e.entities()).containsExactly(b));

        var holdsAC = locks().acquire(List.of(c, a));
        assertThat(holdsAC.entities()).as("the refused request left a and c free").containsExactlyInAnyOrder(a, c);
        assertThat(locks().release(holdsAC)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(holdsB)).isEqualTo(Release.RELEASED);
    }

    @Test
    void aHeldEntityIsRefusedToOthersUntilReleased() {
        var held = locks().acquire(List.of(a, a, b));
        assertThat(held.entities()).as("each entity once").containsExactlyInAnyOrder(a, b);

        assertThatThrownBy(() -> locks().acquire(List.of(c, a))).isInstanceOfSatisfying(EntitiesLockedException.class,
                e -> assertThat(e.entities()).containsExactly(a));
        assertThat(locks().release(held)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(held)).as("released already").isEqualTo(Release.NOT_OURS);

        var next = locks().acquire(List.of(a));
        assertThat(next.holder()).isNotEqualTo(held.holder());
        assertThat(locks().release(next)).isEqualTo(Release.RELEASED);
    }

    @Test
    void fencesOnlyGrowAndAreTheTimeInMicroseconds() {
        var first = locks().acquire(List.of(a));
        assertThat(Duration.between(first.timestamp(), Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));
        locks().release(first);
        var second = locks().acquire(List.of(a));
        assertThat(second.fence()).isGreaterThan(first.fence());
        locks().release(second);

        var alone = locks().acquire(List.of(b));
        locks().release(alone);
        var both = locks().acquire(List.of(a, b));
        assertThat(both.fence()).isGreaterThan(second.fence()).isGreaterThan(alone.fence());
        locks().release(both);
        var afterBoth = locks().acquire(List.of(b));
        assertThat(afterBoth.fence()).isGreaterThan(both.fence());
        locks().release(afterBoth);
    }

    @Test
    void acquireMoreKeepsWhatIsHeldAndGivesAllOneFenceAboveTheirs() {
        var held = locks().acquire(List.of(a));
        var earlierOfB = locks().acquire(List.of(b));
        locks().release(locks().raiseFence(earlierOfB, held.fence() + 1_000_000));

        var more = locks().acquireMore(held, List.of(b, c, a));

        assertThat(more.holder()).isEqualTo(held.holder());
        assertThat(more.entities()).containsExactlyInAnyOrder(a, b, c);
        assertThat(more.fence()).as("above a's and b's").isGreaterThan(held.fence() + 1_000_000);
        assertThatThrownBy(() -> locks().acquire(List.of(a))).isInstanceOf(EntitiesLockedException.class);
        transactions().inOne(transaction -> locks().renew(transaction, more));
        assertThat(locks().acquireMore(more, List.of(c, b))).as("nothing new to lock").isEqualTo(more);
        assertThat(locks().release(more)).isEqualTo(Release.RELEASED);

        var after = locks().acquire(List.of(a, b, c));
        assertThat(after.fence()).isGreaterThan(more.fence());
        locks().release(after);
    }

    @Test
    void acquireMoreRefusedKeepsWhatWasHeldAndTakesNothingNew() {
        var held = locks().acquire(List.of(a));
        var other = locks().acquire(List.of(b));

        assertThatThrownBy(() -> locks().acquireMore(held, List.of(c, b)))
                .isInstanceOfSatisfying(EntitiesLockedException.class, e -> assertThat(e.entities()).containsExactly(b));

        assertThatThrownBy(() -> locks().acquire(List.of(a))).as("a is still held").isInstanceOf(EntitiesLockedException.class);
        transactions().inOne(transaction -> locks().renew(transaction, held));
        var holdsC = locks().acquire(List.of(c));
        assertThat(locks().release(holdsC)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(held)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(other)).isEqualTo(Release.RELEASED);
    }

    @Test
    void raiseFenceLiftsTheFenceAndTheNextHolderGoesAboveIt() {
        var held = locks().acquire(List.of(a, b));
        long floor = held.fence() + 3_600_000_000L;

        assertThat(locks().raiseFence(held, held.fence())).as("at or below the fence: as it is").isEqualTo(held);
        var raised = locks().raiseFence(held, floor);

        assertThat(raised.fence()).isEqualTo(floor);
        assertThat(raised.entities()).isEqualTo(held.entities());
        assertThat(raised.holder()).isEqualTo(held.holder());
        transactions().inOne(transaction -> locks().renew(transaction, raised));
        assertThat(locks().release(raised)).isEqualTo(Release.RELEASED);
        var next = locks().acquire(List.of(b));
        assertThat(next.fence()).isGreaterThan(floor);
        locks().release(next);
    }

    @Test
    void aHolderWhoseLeaseRanOutAndWasTakenLearnsItEverywhere() {
        var held = locks().acquire(List.of(a, b));
        runOut(held);
        var taker = locks().acquire(List.of(a));

        assertThat(taker.fence()).isGreaterThan(held.fence());
        assertThatThrownBy(() -> transactions().inOne(transaction -> locks().renew(transaction, held)))
                .isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> locks().raiseFence(held, held.fence() + 1_000)).isInstanceOf(LeaseLostException.class);
        assertThat(locks().release(held)).isEqualTo(Release.NOT_OURS);
        assertThat(locks().release(taker)).as("the taker's lock was left alone").isEqualTo(Release.RELEASED);
    }

    @Test
    void aLeaseThatRanOutCannotBeRenewedEvenWhenNobodyTookIt() {
        var held = locks().acquire(List.of(a));
        runOut(held);

        assertThatThrownBy(() -> transactions().inOne(transaction -> locks().renew(transaction, held)))
                .isInstanceOf(LeaseLostException.class);
        assertThat(locks().release(held)).as("nobody took it: still named for its holder").isEqualTo(Release.RELEASED);
        var next = locks().acquire(List.of(a));
        assertThat(next.fence()).isGreaterThan(held.fence());
        locks().release(next);
    }

    @Test
    void releaseFreesWhatIsStillOursWhenSomeWasTaken() {
        var held = locks().acquire(List.of(a, b));
        runOut(new Lease(held.holder(), List.of(a), held.fence(), held.acquiredNanos()));
        var taker = locks().acquire(List.of(a));

        assertThat(locks().release(held)).isEqualTo(Release.NOT_OURS);

        var holdsB = locks().acquire(List.of(b));
        assertThat(locks().release(holdsB)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(taker)).isEqualTo(Release.RELEASED);
    }

    @Test
    void acquireMoreDoesNotTakeBackWhatTheHolderLost() {
        var held = locks().acquire(List.of(a));
        runOut(held);
        var taker = locks().acquire(List.of(a));

        var more = locks().acquireMore(held, List.of(b));

        assertThatThrownBy(() -> transactions().inOne(transaction -> locks().renew(transaction, more)))
                .isInstanceOf(LeaseLostException.class);
        assertThatThrownBy(() -> locks().acquire(List.of(a))).as("a stays the taker's")
                .isInstanceOf(EntitiesLockedException.class);
        assertThat(locks().release(taker)).isEqualTo(Release.RELEASED);
        assertThat(locks().release(more)).isEqualTo(Release.NOT_OURS);
    }
}
