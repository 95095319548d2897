package io.profilestore.db;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * The locks of a change and the record it leaves for the indexer, as the write path uses them: the port
 * {@link EntityLocks} implements on PostgreSQL's lock table and outbox.
 */
public interface ChangeLocks {

    /** What releasing found: every lock still ours; some not ours any more; or the lock table could not say. */
    enum Release { RELEASED, NOT_OURS, UNKNOWN }

    /** How long a lock lasts unless renewed. */
    Duration lease();

    /**
     * Locks all the entities or none, at once or never.
     *
     * @throws EntitiesLockedException when any of them is held by another request
     */
    Lease acquire(Collection<String> wanted);

    /** Locks more entities for a holder, all or none; every entity of both sets then shares one fence above theirs. */
    Lease acquireMore(Lease held, Collection<String> wanted);

    /**
     * Raises the fence of a holder's locks to at least {@code floor}.
     *
     * @throws LeaseLostException when some lock is no longer ours
     */
    Lease raiseFence(Lease held, long floor);

    /**
     * Renews the lease and records the changes for the indexer, in one transaction with the journal's work.
     *
     * @throws LeaseLostException when some lock is no longer ours; nothing is recorded then
     */
    void recordChange(Lease held, List<OutboxRecord> records, Journal journal);

    /** Records changes for the indexer again, outside any lease; false if that failed. */
    boolean recordAgain(List<OutboxRecord> records);

    /** Records changes for the indexer again after each of the delays; false if that failed. */
    boolean recordAgainLater(List<OutboxRecord> records, List<Duration> delays);

    /** Frees the locks that are still ours; never throws. */
    Release release(Lease held);

    /** The changes of several profiles that may still land, as this lock table records them. */
    UnsettledWrites unsettled();
}
