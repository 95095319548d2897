package io.profilestore.change;

import io.profilestore.change.LockTable.Release;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one write path of every change, to profiles and to users alike (docs/design/write-path.md):
 * <ol>
 *   <li>lock the entities ({@link LockTable}; taken: fail at once) and complete what an earlier holder left
 *   unconfirmed on them ({@link UnsettledChangeSettler});</li>
 *   <li>let the change read ({@link ProfileRows}) and decide;</li>
 *   <li>record it in one transaction ({@link RecordTransactions}): renew the locks, the outbox rows
 *   ({@link OutboxWriter}), its journal, what completes it ({@link UnsettledChanges}) and its audit record
 *   ({@link AuditAppender});</li>
 *   <li>write Cassandra at the locks' fence ({@link ProfileRows#apply}), and release.</li>
 * </ol>
 * A change is acknowledged only once Cassandra confirmed it under locks that were ours all along.
 */
public class ChangeRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeRunner.class);

    private final ProfileRows tables;
    private final LockTable locks;
    private final RecordTransactions transactions;
    private final OutboxWriter outbox;
    private final UnsettledChanges unsettled;
    private final AuditAppender audit;
    private final List<Duration> unknownOutcomeRechecks;
    private final WritePathProbe probe;
    private final Runnable changesRecorded;
    private final UnsettledChangeSettler unsettledBatches;

    public ChangeRunner(ChangePorts ports, List<Duration> unknownOutcomeRechecks, WritePathProbe probe) {
        this(ports, unknownOutcomeRechecks, probe, () -> { });
    }

    /**
     * {@code changesRecorded} is told when a change's outbox records are committed and its write has landed (the
     * relay of this process, which then publishes them at once instead of at its next poll).
     */
    public ChangeRunner(ChangePorts ports, List<Duration> unknownOutcomeRechecks, WritePathProbe probe,
            Runnable changesRecorded) {
        this.tables = ports.rows();
        this.locks = ports.locks();
        this.transactions = ports.transactions();
        this.outbox = ports.outbox();
        this.unsettled = ports.unsettled();
        this.audit = ports.audit();
        this.unknownOutcomeRechecks = List.copyOf(unknownOutcomeRechecks);
        this.probe = probe;
        this.changesRecorded = changesRecorded;
        this.unsettledBatches = new UnsettledChangeSettler(tables, unsettled);
    }

    /** Runs a change holding the entities' locks, and releases them whatever happens. */
    public <T> T underLock(Origin origin, List<String> entities, Function<Change, T> body) {
        var change = new Change(locks.acquire(entities), origin);
        T result = null;
        Release released = null;
        boolean done = false;
        try {
            unsettledBatches.settle(change);
            probe.locked(change.lease);
            result = body.apply(change);
            done = true;
        } catch (CassandraUnavailableException e) {
            if (change.refusedAfterRecord) {
                // another holder may have completed it once our lease ran out, or may yet (a release lost in a
                // crash): "nothing was changed" only once what completes it is durably gone while the locks were ours
                released = unsettled.forget(change.lease);
                if (released != Release.RELEASED) {
                    throw new CassandraUnavailableException("Cassandra refused the write, and another request may have"
                            + " completed it meanwhile", e, true);
                }
            }
            throw e;
        } finally {
            // a change Cassandra did not confirm may land later: what completes it stays for the next holder of
            // any of its locks, who completes it before anything is read
            if (released == null) {
                released = change.unconfirmed ? unsettled.releaseLeavingItToComplete(change.lease)
                        : locks.release(change.lease);
            }
            if (change.auditRecord != null) {
                audit.outcome(origin, change.auditRecord, done && !(change.written && lost(change, released)));
            }
        }
        if (change.written && !change.heldWhileWriting) {
            // the write landed after its lease ran out, when the indexer may have stopped waiting for it and
            // indexed the row as it was: it is told again, to read what stands now
            if (!outbox.appendAgain(change.records)) {
                LOG.warn("a write that outlasted its lease could not be recorded again; reconcile repairs its index");
            } else {
                changesRecorded.run();
            }
        }
        if (change.written && lost(change, released)) {
            // another request may have taken the locks and written a newer version, which our write (with a
            // smaller fence) loses to; we cannot say which one stands
            throw new LeaseLostException("the locks were not ours any more when Cassandra had been written", true);
        }
        return result;
    }

    /**
     * Whether another request may have written the same entities meanwhile: our locks were taken or their rows are
     * gone (whatever our clock says of the lease: a failover loses rows), or, PostgreSQL silent, the write outlasted
     * the lease.
     */
    private static boolean lost(Change change, Release released) {
        return released == Release.NOT_OURS
                || released == Release.UNKNOWN && !change.heldWhileWriting;
    }

    /** One change under its locks: records it, then writes it, and remembers whether the locks lasted. */
    public final class Change {
        /** Who makes it: the id its rows carry ({@code written_by}), and who its audit record names. */
        private final Origin origin;
        private Lease lease;
        private List<OutboxRecord> records = List.of();
        private Long auditRecord;
        private boolean written;
        private boolean heldWhileWriting;
        /**
         * The change may be recorded with what completes it ({@link UnsettledChanges.Completion}), and Cassandra has
         * not confirmed it (yet).
         */
        private boolean unconfirmed;
        /** ... and Cassandra then surely did not apply it: nothing was changed, unless somebody completed it. */
        private boolean refusedAfterRecord;

        private Change(Lease lease, Origin origin) {
            this.lease = lease;
            this.origin = origin;
        }

        public Lease lease() {
            return lease;
        }

        /** The id of the change: what its rows, its audit record and a merge's journal say wrote them. */
        public UUID writer() {
            return origin.writer();
        }

        /** Who makes the change. */
        public Origin origin() {
            return origin;
        }

        /**
         * Locks more entities, found only by reading under the first locks (the profiles of a user being merged):
         * all of them or none, at once or never; every entity's fence moves up to one.
         */
        public void lockMore(List<String> entities) {
            lockMoreAsIs(entities);
            unsettledBatches.settle(this);
        }

        /** {@link #lockMore}, leaving any batch that may still land on them to the caller. */
        void lockMoreAsIs(List<String> entities) {
            lease = locks.acquireMore(lease, entities);
        }

        /**
         * Writes rows again as they stand, above the fence of a batch that may still land, and then raises the fence
         * above this write for what the change itself writes. Nothing changes for the indexer, so nothing is recorded
         * for it; the lease is renewed first, as for any write. Should this write go unconfirmed, the batch stays
         * unsettled, for the next holder.
         */
        void writeAgain(List<RowWrite> writes, UUID revokedHolder) {
            if (writes.isEmpty()) {
                return;
            }
            transactions.inOne(transaction -> {
                locks.renew(transaction, lease);
                unsettled.revoke(transaction, revokedHolder, lease.fence());
            });
            tables.apply(writes, lease.fence(), origin.writer());
            fenceAbove(lease.fence());
        }

        /**
         * Makes the fence exceed the write time of the rows this change read and replaces (call it before using
         * the fence): a change must win last-write-wins over what it replaces, whatever PostgreSQL's clock says.
         */
        public void fenceAbove(long written) {
            lease = locks.raiseFence(lease, Math.addExact(written, 1));
        }

        public void commit(List<OutboxRecord> records, List<RowWrite> writes) {
            commit(records, writes, JournalEntry.NONE);
        }

        public void commit(List<OutboxRecord> records, List<RowWrite> writes, JournalEntry journal) {
            long renewed = System.nanoTime();
            var pids = records.stream().map(OutboxRecord::entityId).distinct().toList();
            // a journaled change (a merge, an unmerge) is completed by the recovery from its journal instead; one of
            // users alone (the table check's) is found by no lock of a profile, and settled by check-tables again
            boolean completable = journal == JournalEntry.NONE
                    && records.stream().anyMatch(r -> r.entityType().equals(OutboxRecord.PROFILE));
            record(completable, transaction -> {
                locks.renew(transaction, lease);
                outbox.append(transaction, records, locks.lease());
                journal.write(transaction);
                if (completable) {
                    unsettled.keep(transaction, lease, new UnsettledChanges.Completion(writes, records, origin.writer()));
                }
                // who made the change goes into the audit trail in the same transaction as its record
                auditRecord = audit.append(transaction, origin, pids);
                probe.committing(lease);
            });
            this.records = List.copyOf(records);
            probe.recorded(lease);
            try {
                applyBatch(writes);
            } catch (CassandraUnavailableException e) {
                if (e.maybeApplied() && !outbox.appendLater(records, unknownOutcomeRechecks)) {
                    LOG.warn("an unconfirmed write could not be announced again for later; reconcile repairs its index");
                }
                throw e;
            }
            written = true;
            heldWhileWriting = System.nanoTime() - renewed < locks.lease().toNanos();
            // after the write, not after the record's commit: an event that reached the indexer before its write
            // would be held there until the write landed
            changesRecorded.run();
            probe.written(lease);
        }

        private void record(boolean completable, RecordTransactions.Work work) {
            unconfirmed = completable; // from here on it may be recorded, whatever PostgreSQL answers
            try {
                transactions.inOne(work);
            } catch (LeaseLostException e) {
                unconfirmed = false; // refused: nothing was recorded
                throw e;
            } catch (PostgresUnavailableException e) {
                if (!e.commitUnconfirmed()) {
                    unconfirmed = false; // failed before its commit was sent
                }
                throw e;
            }
        }

        private void applyBatch(List<RowWrite> writes) {
            try {
                tables.apply(writes, lease.fence(), origin.writer());
            } catch (CassandraUnavailableException e) {
                if (!e.maybeApplied() && unconfirmed) {
                    unconfirmed = false; // nothing landed, nothing will: forgotten, unless completed meanwhile
                    refusedAfterRecord = true;
                }
                throw e;
            }
            unconfirmed = false;
        }

        /**
         * Completes a change that may still land, as it recorded it: its rows written again at a fence above every
         * write of them (raised by the caller) under the id of their maker, its records for the indexer at that fence;
         * then the fence is raised above this write for what the change itself writes. Should this write go unconfirmed
         * too, the change stays to complete, for the next holder.
         */
        void complete(UnsettledChanges.Completion completion) {
            var records = completion.records().stream().map(r -> new OutboxRecord(r.entityType(), r.entityId(),
                    r.version(), lease.fence(), r.erased())).toList();
            transactions.inOne(transaction -> {
                locks.renew(transaction, lease);
                outbox.append(transaction, records, locks.lease());
            });
            tables.apply(completion.writes(), lease.fence(), completion.writer());
            fenceAbove(lease.fence());
        }
    }
}
