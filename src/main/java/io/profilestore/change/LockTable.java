package io.profilestore.change;

import java.time.Duration;
import java.util.Collection;
import java.util.UUID;

/**
 * The locks of a change, each entity's with a lease and a fence, as the write path takes them: the port
 * {@code postgres.PostgresLockTable} implements on PostgreSQL's lock table.
 */
public interface LockTable {

    /** What releasing found: every lock still ours; some not ours any more; or the lock table could not say. */
    enum Release { RELEASED, NOT_OURS, UNKNOWN }

    /** The lock of a profile: entities are named by kind and id, so that profiles and users share one lock table. */
    static String profile(UUID pid) {
        return "profile:" + pid;
    }

    /** The lock of a user. */
    static String user(UUID uid) {
        return "user:" + uid;
    }

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
     * Renews the lease, first in the transaction that records the change. An adapter may send the renewal with the
     * record's other statements: its refusal then comes out of the transaction's work or commit, never after it.
     *
     * @throws LeaseLostException when some lock is no longer ours (from here or from the transaction that carries
     *                            it); nothing is committed then
     */
    void renew(RecordTransaction transaction, Lease held);

    /** Frees the locks that are still ours; never throws. */
    Release release(Lease held);
}
