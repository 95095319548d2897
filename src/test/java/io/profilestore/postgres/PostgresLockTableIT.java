package io.profilestore.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.profilestore.change.EntitiesLockedException;
import io.profilestore.change.LeaseLostException;
import io.profilestore.change.LockTable;
import io.profilestore.change.OutboxRecord;
import io.profilestore.testing.Stores;
import io.profilestore.testing.TestStack;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lock table on the real PostgreSQL. */
class PostgresLockTableIT {

    PostgresLockTable locks;
    String a;
    String b;
    String c;

    @BeforeEach
    void fresh() {
        locks = Stores.locks(Duration.ofSeconds(30));
        a = "test:" + UUID.randomUUID();
        b = "test:" + UUID.randomUUID();
        c = "test:" + UUID.randomUUID();
    }

    @Test
    void takesAllOrNone() {
        var holdsB = locks.acquire(List.of(b));

        assertThatThrownBy(() -> locks.acquire(List.of(a, b, c)))
                .isInstanceOf(EntitiesLockedException.class)
                .satisfies(e -> assertThat(((EntitiesLockedException) e).entities()).containsExactly(b));
        // a and c were not left locked by the refused request
        var holdsAC = locks.acquire(List.of(a, c));
        assertThat(locks.release(holdsAC)).isEqualTo(PostgresLockTable.Release.RELEASED);
        assertThat(locks.release(holdsB)).isEqualTo(PostgresLockTable.Release.RELEASED);
        assertThat(locks.release(locks.acquire(List.of(a, b, c)))).isEqualTo(PostgresLockTable.Release.RELEASED);
    }

    @Test
    void fencesOnlyGrowAndASetSharesOneFenceAboveEachOfItsMembers() {
        long previous = 0;
        for (int i = 0; i < 200; i++) {
            var lease = locks.acquire(List.of(a));
            assertThat(lease.fence()).isGreaterThan(previous);
            previous = lease.fence();
            locks.release(lease);
        }
        var alone = locks.acquire(List.of(b));
        locks.release(alone);

        var both = locks.acquire(List.of(a, b));
        assertThat(both.fence()).isGreaterThan(previous).isGreaterThan(alone.fence());
        locks.release(both);
        var afterA = locks.acquire(List.of(a));
        var afterB = locks.acquire(List.of(b));
        assertThat(afterA.fence()).isGreaterThan(both.fence());
        assertThat(afterB.fence()).isGreaterThan(both.fence());
    }

    @Test
    void fencesFollowPostgresTimeInMicroseconds() {
        var lease = locks.acquire(List.of(a));
        assertThat(Duration.between(lease.timestamp(), Instant.now()).abs()).isLessThan(Duration.ofMinutes(1));
    }

    @Test
    void aLeaseThatRanOutCanBeTakenAndItsHolderLearnsIt() {
        var shortLocks = Stores.locks(Duration.ofSeconds(1));
        var first = shortLocks.acquire(List.of(a));
        assertThatThrownBy(() -> shortLocks.acquire(List.of(a))).isInstanceOf(EntitiesLockedException.class);

        var second = await("the lease to run out and the lock to be taken again").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> shortLocks.acquire(List.of(a)), lease -> true);

        assertThat(second.fence()).isGreaterThan(first.fence());
        assertThatThrownBy(() -> new PostgresRecordTransactions(TestStack.backends().postgres())
                .inOne(transaction -> shortLocks.renew(transaction, first)))
                .isInstanceOf(LeaseLostException.class);
        assertThat(shortLocks.release(first)).as("the first holder's lock is gone")
                .isEqualTo(PostgresLockTable.Release.NOT_OURS);
        assertThat(shortLocks.release(second)).isEqualTo(PostgresLockTable.Release.RELEASED);
    }

    @Test
    void recordingRenewsTheLeaseAndWritesTheOutbox() throws Exception {
        var pid = UUID.randomUUID();
        var lease = locks.acquire(List.of(LockTable.profile(pid)));

        var postgres = TestStack.backends().postgres();
        new PostgresRecordTransactions(postgres).inOne(transaction -> {
            locks.renew(transaction, lease);
            new PostgresOutbox(postgres).append(transaction, List.of(OutboxRecord.profile(pid, 7, lease.fence())),
                    locks.lease());
        });

        assertThat(Stores.outboxVersions(pid)).containsExactly(7L);
        assertThat(locks.release(lease)).isEqualTo(PostgresLockTable.Release.RELEASED);
    }
}
