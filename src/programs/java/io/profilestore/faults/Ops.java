package io.profilestore.faults;

import io.profilestore.faults.Op.Kind;
import io.profilestore.faults.Op.Slot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The changes of a run as the checker models them ({@link Op}), made from the history, the journal and the audit
 * trail, with what the history observed of each profile (reads). Building them finds what needs no search: an
 * answer that contradicts itself or the journal (an acknowledged merge the journal does not hold, say).
 */
final class Ops {

    /** How far the stores' clock (PostgreSQL's, turned into the history's times) and the history's may be apart. */
    static final long CLOCKS = 2_000_000_000L;

    /**
     * How long before the journal marks an operation applied the recovery that completed it read: within its lease
     * (5 s in the suite), twice, and the clocks' difference. A completion that read earlier than that (frozen after it
     * read, and finishing without its locks) could miss a profile a source took meanwhile, which the check finds.
     */
    static final long RESUMED_WITHIN = 12_000_000_000L;

    /** A user nobody can name: whatever root a repair put the profile under. */
    static final UUID ANY_USER = new UUID(-1, -1);

    /** A read of a profile: what it saw (version, data, user), or that the profile was not there (version 0). */
    record Read(Event event, long version, String write, UUID uid) {
    }

    final List<Op> all = new ArrayList<>();
    /** pid: the changes that may have written it. */
    final Map<UUID, List<Op>> byPid = new HashMap<>();
    /** pid: what reads saw of it. */
    final Map<UUID, List<Read>> reads = new HashMap<>();
    /** Contradictions found without a search. */
    final List<String> violations = new ArrayList<>();
    /**
     * Puts and patches answered "nothing was changed" after their change was recorded, because Cassandra did not
     * confirm the link their row write sends first: they made no version, but that link may have landed without its
     * row. They explain links only.
     */
    final List<Op> linkOnly = new ArrayList<>();
    /** The writers (ids) of the system's own changes: check-tables' repairs, abandons. */
    final Set<UUID> systemWriters = new HashSet<>();

    private final FinalState state;

    private Ops(FinalState state) {
        this.state = state;
    }

    static Ops of(List<Event> history, FinalState state) {
        var ops = new Ops(state);
        var journal = new HashMap<UUID, FinalState.Operation>();
        state.operations().forEach(operation -> {
            if (operation.requestId() != null) {
                journal.put(operation.requestId(), operation);
            }
        });
        for (var event : history) {
            if (event.op().equals("read")) {
                ops.read(event);
            } else if (event.isChange() && event.mayHaveHappened()) {
                var op = ops.change(event, journal.get(event.requestId()));
                if (op != null) {
                    ops.add(op);
                }
            } else if (event.isChange()) {
                ops.linkOnly(event).ifPresent(ops.linkOnly::add);
            }
        }
        for (var change : state.audit().systemChanges()) {
            if (!change.job().equals("recovery")) {
                ops.systemWriters.add(change.writer()); // the recovery writes as the operation it completes
            }
            if (change.job().equals("check-tables") && !change.pids().isEmpty()) {
                var slots = new LinkedHashMap<UUID, Slot>();
                change.pids().forEach(pid -> slots.put(pid, new Slot(0, ANY_USER, null, null, null, false)));
                ops.add(new Op(null, Kind.REPAIR, change.writer(), false, false, false, change.at() - CLOCKS,
                        change.at() + CLOCKS, Op.OPEN, slots, null));
            }
        }
        return ops;
    }

    private void add(Op op) {
        all.add(op);
        op.slots.keySet().forEach(pid -> byPid.computeIfAbsent(pid, p -> new ArrayList<>()).add(op));
    }

    private void read(Event event) {
        if (event.ok() && !event.pids().isEmpty()) {
            UUID pid = event.pids().get(0);
            reads.computeIfAbsent(pid, p -> new ArrayList<>()).add(new Read(event, event.versions().getOrDefault(pid, 0L),
                    event.seen().get(pid), event.uid()));
        } else if (event.status() == 404 && "profile-not-found".equals(event.problem()) && !event.pids().isEmpty()) {
            reads.computeIfAbsent(event.pids().get(0), p -> new ArrayList<>()).add(new Read(event, 0, null, null));
        }
    }

    /** The change a request made, if it may have made one; null when it surely made none. */
    private Op change(Event event, FinalState.Operation operation) {
        boolean acked = event.ok();
        var recorded = state.audit().recordedAt();
        Long recordedAt = recorded == null || event.requestId() == null ? null : recorded.get(event.requestId());
        // a change is recorded in PostgreSQL before Cassandra is written: without a record it wrote nothing
        boolean unrecorded = recorded != null && event.requestId() != null && recordedAt == null && !acked;
        long readUntil = acked ? event.end() : recordedAt != null ? recordedAt + CLOCKS : Op.OPEN;
        long landUntil = acked ? event.end() : Op.OPEN;
        var slots = new LinkedHashMap<UUID, Slot>();
        Kind kind;
        switch (event.op()) {
            case "create" -> {
                kind = Kind.CREATE;
                UUID pid = acked ? event.pids().get(0) : createdBy(event);
                if (pid == null) {
                    return null; // no profile holds its write: it made none
                }
                UUID owner = event.uid() != null ? event.uid() : ownerOf(pid, event);
                slots.put(pid, new Slot(1, owner, owner, event.write(), null, false));
            }
            case "put", "patch" -> {
                kind = event.op().equals("put") ? Kind.PUT : Kind.PATCH;
                UUID pid = event.pids().get(0);
                slots.put(pid, new Slot(madeVersion(event, pid), null, null, event.writes().get(pid), null, false));
            }
            case "batchUpdate" -> {
                kind = Kind.BATCH;
                event.expected().keySet().forEach(pid -> slots.put(pid, new Slot(madeVersion(event, pid), null, null,
                        event.writes().get(pid), null, false)));
            }
            case "erase" -> {
                kind = Kind.ERASE;
                slots.put(event.pids().get(0), new Slot(event.ifMatch() + 1, null, null, null, null, true));
            }
            case "move" -> {
                kind = Kind.MOVE;
                UUID pid = event.pids().get(0);
                if (acked && event.versions().get(pid) != null && event.versions().get(pid).equals(event.ifMatch())) {
                    // to the user it was at home under already: nothing written, only seen (a read of its version)
                    reads.computeIfAbsent(pid, p -> new ArrayList<>()).add(new Read(event, event.ifMatch(), null, event.uid()));
                    return null;
                }
                slots.put(pid, new Slot(madeVersion(event, pid), event.uid(), event.uid(), null, null, false));
            }
            case "merge", "unmerge" -> {
                journaled(event, operation);
                return null;
            }
            default -> {
                return null;
            }
        }
        return new Op(event, kind, event.requestId(), acked, false, unrecorded, event.start(), readUntil, landUntil, slots,
                null);
    }

    /**
     * A merge or unmerge: what the journal holds of it decides whether it happened (it is journaled before Cassandra
     * is written, and marked applied once Cassandra confirmed it, by its request or by the recovery); its answer, when
     * it was acknowledged, says what it moved, at which versions. One not acknowledged may have been completed by the
     * recovery long after its request read: that completion is a change of its own (the same writer, its own read
     * point, just before the journal marked it applied), which made some of the versions or none.
     */
    private void journaled(Event event, FinalState.Operation operation) {
        boolean acked = event.ok();
        Kind kind = event.op().equals("merge") ? Kind.MERGE : Kind.UNMERGE;
        if (operation == null || !operation.applied()) {
            if (acked) {
                violations.add(event.op() + " #" + event.id() + " was acknowledged, but the journal holds it "
                        + (operation == null ? "not at all" : operation.state()));
            }
            return; // not journaled, or abandoned (its rows written again above it): it changed nothing
        }
        var slots = new LinkedHashMap<UUID, Slot>();
        operation.moves().forEach((pid, move) -> slots.put(pid, new Slot(move.version(), move.to(), null, null,
                move.from(), false)));
        if (acked) {
            var answered = new HashSet<>(event.moved());
            if (!answered.equals(event.versions().keySet()) || !answered.equals(operation.moves().keySet())
                    || event.versions().entrySet().stream().anyMatch(v -> operation.moves().get(v.getKey()).version() != v.getValue())) {
                violations.add(event.op() + " #" + event.id() + " answered it moved " + event.versions() + ", and the journal"
                        + " says " + operation.moves().keySet() + " at other versions or others");
            }
            add(new Op(event, kind, event.requestId(), true, true, false, event.start(), event.end(), event.end(), slots,
                    operation));
            return;
        }
        long finished = operation.finishedAt() == null ? Op.OPEN : operation.finishedAt() + CLOCKS;
        // answered "pending", it was completed by the recovery: its last read just before it was marked applied
        long completedFrom = "operation-pending".equals(event.problem()) && operation.finishedAt() != null
                ? Math.max(event.start(), operation.finishedAt() - RESUMED_WITHIN) : event.start();
        add(new Op(event, kind, event.requestId(), false, true, false, event.start(), operation.recordedAt() + CLOCKS,
                Op.OPEN, slots, operation, completedFrom, finished));
        add(new Op(event, kind, event.requestId(), false, false, false, completedFrom, finished, finished, slots, null));
    }

    /** A put or patch refused by Cassandra after it was recorded, as a writer of its row's own link alone. */
    private Optional<Op> linkOnly(Event event) {
        var recorded = state.audit().recordedAt();
        boolean refusedWhileWriting = (event.op().equals("put") || event.op().equals("patch"))
                && "cassandra-unavailable".equals(event.problem()) && event.ifMatch() != null && event.requestId() != null
                && (recorded == null || recorded.containsKey(event.requestId()));
        if (!refusedWhileWriting) {
            return Optional.empty();
        }
        var slots = Map.of(event.pids().get(0), new Slot(event.ifMatch() + 1, null, null, null, null, false));
        return Optional.of(new Op(event, event.op().equals("put") ? Kind.PUT : Kind.PATCH, event.requestId(), false, false,
                false, event.start(), Op.OPEN, Op.OPEN, slots, null));
    }

    /** The version an acknowledged change answered, or the one after the version an unknown one said it replaces. */
    private long madeVersion(Event event, UUID pid) {
        Long replaced = event.replaces(pid);
        Long answered = event.ok() ? event.versions().get(pid) : null;
        if (answered != null && replaced != null && answered != replaced + 1) {
            violations.add(event.op() + " #" + event.id() + " replaced version " + replaced + " of profile " + pid
                    + " and answered version " + answered);
        }
        return answered != null ? answered : replaced + 1;
    }

    /** The profile a create with no answer made: the one holding its write, or written by its request. */
    private UUID createdBy(Event event) {
        for (var entry : state.profiles().entrySet()) {
            var profile = entry.getValue();
            if (event.write() != null && event.write().equals(profile.write())
                    || event.requestId() != null && event.requestId().equals(profile.writer())) {
                return entry.getKey();
            }
        }
        return null;
    }

    /**
     * The user a create with no answer and no uid asked for made: the one its request wrote, else the one the profile
     * it made belongs to (nothing else knows the profile: its own user never changes).
     */
    private UUID ownerOf(UUID pid, Event event) {
        for (var entry : state.users().entrySet()) {
            if (event.requestId() != null && event.requestId().equals(entry.getValue().writer())) {
                return entry.getKey();
            }
        }
        var profile = state.profiles().get(pid);
        return profile == null ? null : profile.home();
    }
}
