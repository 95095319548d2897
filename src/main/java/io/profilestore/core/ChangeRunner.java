package io.profilestore.core;

import io.profilestore.audit.AuditContext;
import io.profilestore.audit.AuditLog;
import io.profilestore.audit.ChangeOutcomes;
import io.profilestore.db.CassandraUnavailableException;
import io.profilestore.db.ChangeLocks;
import io.profilestore.db.ChangeLocks.Release;
import io.profilestore.db.Journal;
import io.profilestore.db.Lease;
import io.profilestore.db.LeaseLostException;
import io.profilestore.db.OutboxRecord;
import io.profilestore.db.PostgresUnavailableException;
import io.profilestore.db.ProfileTables;
import io.profilestore.db.RowWrite;
import io.profilestore.db.UnsettledWrites;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one write path of every change, to profiles and to users alike: lock the entities in PostgreSQL (taken:
 * fail at once), let the change read and decide, record it in the outbox while renewing the locks, write
 * Cassandra at the locks' fence, release. A change is acknowledged only once Cassandra confirmed it under locks
 * that were ours all along.
 */
public class ChangeRunner {

    private static final Logger LOG = LoggerFactory.getLogger(ChangeRunner.class);

    private final ProfileTables tables;
    private final ChangeLocks locks;
    private final ChangeOutcomes audit;
    private final List<Duration> unknownOutcomeRechecks;
    private final WritePathProbe probe;
    private final Runnable changesRecorded;
    private final UnsettledBatches unsettledBatches;

    public ChangeRunner(ProfileTables tables, ChangeLocks locks, ChangeOutcomes audit, List<Duration> unknownOutcomeRechecks,
            WritePathProbe probe) {
        this(tables, locks, audit, unknownOutcomeRechecks, probe, () -> { });
    }

    /**
     * {@code changesRecorded} is told when a change's outbox records are committed and its write has landed (the
     * relay of this process, which then publishes them at once instead of at its next poll).
     */
    public ChangeRunner(ProfileTables tables, ChangeLocks locks, ChangeOutcomes audit, List<Duration> unknownOutcomeRechecks,
            WritePathProbe probe, Runnable changesRecorded) {
        this.tables = tables;
        this.locks = locks;
        this.audit = audit;
        this.unknownOutcomeRechecks = List.copyOf(unknownOutcomeRechecks);
        this.probe = probe;
        this.changesRecorded = changesRecorded;
        this.unsettledBatches = new UnsettledBatches(tables, locks.unsettled());
    }

    /** Runs a change holding the entities' locks, and releases them whatever happens. */
    public <T> T underLock(List<String> entities, Function<Change, T> body) {
        var change = new Change(locks.acquire(entities), AuditContext.writer());
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
                released = locks.unsettled().forget(change.lease);
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
                released = change.unconfirmed ? locks.unsettled().releaseLeavingItToComplete(change.lease)
                        : locks.release(change.lease);
            }
            recordSystemOutcome(change, done && !(change.written && lost(change, released)));
        }
        if (change.written && !change.heldWhileWriting) {
            // the write landed after its lease ran out, when the indexer may have stopped waiting for it and
            // indexed the row as it was: it is told again, to read what stands now
            if (!locks.recordAgain(change.records)) {
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

    /**
     * The outcome of a change the system made on its own (the recovery, the table check): a request's changes get
     * the status of its answer from the audit filter instead.
     */
    private void recordSystemOutcome(Change change, boolean applied) {
        if (change.auditRecord == null || AuditContext.inRequest()) {
            if (change.auditRecord != null) {
                AuditContext.changeRecorded(change.auditRecord);
            }
            return;
        }
        try {
            audit.recordOutcome(List.of(change.auditRecord), applied ? 200 : 503);
        } catch (RuntimeException e) {
            LOG.warn("the outcome of a system change could not be recorded in the audit trail; it stays unknown there");
        }
    }

    /** One change under its locks: records it, then writes it, and remembers whether the locks lasted. */
    public final class Change {
        /** The id its rows carry ({@code written_by}): the request's, or the system work's. */
        private final UUID writer;
        private Lease lease;
        private List<OutboxRecord> records = List.of();
        private Long auditRecord;
        private boolean written;
        private boolean heldWhileWriting;
        /**
         * The change may be recorded with what completes it ({@link UnsettledWrites.Completion}), and Cassandra has
         * not confirmed it (yet).
         */
        private boolean unconfirmed;
        /** ... and Cassandra then surely did not apply it: nothing was changed, unless somebody completed it. */
        private boolean refusedAfterRecord;

        private Change(Lease lease, UUID writer) {
            this.lease = lease;
            this.writer = writer;
        }

        public Lease lease() {
            return lease;
        }

        /** The id of the change: what its rows, its audit record and a merge's journal say wrote them. */
        public UUID writer() {
            return writer;
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
        void writeAgain(List<RowWrite> writes, Journal journal) {
            if (writes.isEmpty()) {
                return;
            }
            locks.recordChange(lease, List.of(), journal);
            tables.apply(writes, lease.fence(), writer);
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
            commit(records, writes, Journal.NONE);
        }

        public void commit(List<OutboxRecord> records, List<RowWrite> writes, Journal journal) {
            long renewed = System.nanoTime();
            // who made the change goes into the audit trail in the same transaction as its record
            var audit = AuditLog.journal(AuditContext.change(records.stream().map(OutboxRecord::entityId).distinct().toList(),
                    writer), id -> auditRecord = id);
            // a journaled change (a merge, an unmerge) is completed by the recovery from its journal instead; one of
            // users alone (the table check's) is found by no lock of a profile, and settled by check-tables again
            boolean completable = journal == Journal.NONE
                    && records.stream().anyMatch(r -> r.entityType().equals(OutboxRecord.PROFILE));
            var completion = completable
                    ? locks.unsettled().toComplete(lease, new UnsettledWrites.Completion(writes, records, writer))
                    : Journal.NONE;
            record(records, completable, connection -> {
                journal.write(connection);
                completion.write(connection);
                audit.write(connection);
                probe.committing(lease);
            });
            this.records = List.copyOf(records);
            probe.recorded(lease);
            try {
                applyBatch(writes);
            } catch (CassandraUnavailableException e) {
                if (e.maybeApplied() && !locks.recordAgainLater(records, unknownOutcomeRechecks)) {
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

        private void record(List<OutboxRecord> records, boolean completable, Journal journal) {
            unconfirmed = completable; // from here on it may be recorded, whatever PostgreSQL answers
            try {
                locks.recordChange(lease, records, journal);
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
                tables.apply(writes, lease.fence(), writer);
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
        void complete(UnsettledWrites.Completion completion) {
            var records = completion.records().stream().map(r -> new OutboxRecord(r.entityType(), r.entityId(),
                    r.version(), lease.fence(), r.erased())).toList();
            locks.recordChange(lease, records, Journal.NONE);
            tables.apply(completion.writes(), lease.fence(), completion.writer());
            fenceAbove(lease.fence());
        }
    }
}
