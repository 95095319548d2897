package io.profilestore.twins;

import io.profilestore.change.JournalEntry;
import io.profilestore.change.Lease;
import io.profilestore.change.UserJournal;
import io.profilestore.change.UserJournalHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The twin of the merge journal ({@code postgres.PostgresUserJournal} and {@code PostgresUserJournalHistory}): the
 * operations with their state, what each moved, and which sources each unmerge undoes, as the journal's tables hold
 * them. Journal entries apply at the commit of the change's transaction, like the rest of its record.
 * {@code contracts.UserJournalContract} and {@code contracts.UserJournalHistoryContract} hold it to PostgreSQL.
 */
public final class InMemoryUserJournal implements UserJournal, UserJournalHistory {

    private enum State { PENDING, APPLIED, ABANDONED }

    /**
     * An operation as the journal holds it; {@code seq} orders them as their recording did, and {@code recordedAt}
     * is when that was (the commit of its transaction), as the console shows it.
     */
    private static final class Entry {
        final Operation operation;
        final long seq;
        final Instant recordedAt = Instant.now();
        State state = State.PENDING;
        final Map<UUID, Move> moves = new TreeMap<>();

        Entry(Operation operation, long seq) {
            this.operation = operation;
            this.seq = seq;
        }
    }

    /** One source of a merge undone by an unmerge. */
    private record Undo(UUID mergeId, UUID source, UUID unmergeId) {
    }

    private final InMemoryLockTable locks;
    private final Map<UUID, Entry> operations = new LinkedHashMap<>();
    private final List<Undo> undos = new ArrayList<>();
    private long seq;

    /** {@code locks}: the lock table an operation is abandoned under (only while its caller holds its locks). */
    public InMemoryUserJournal(InMemoryLockTable locks) {
        this.locks = locks;
    }

    @Override
    public JournalEntry recordMerge(Operation merge, List<Move> moves, UUID requestId) {
        return transaction -> InMemoryTransaction.write(transaction, () -> record(merge, moves, requestId));
    }

    @Override
    public JournalEntry recordUnmerge(Operation unmerge, List<Move> moves, UUID requestId) {
        return transaction -> InMemoryTransaction.write(transaction, () -> {
            record(unmerge, moves, requestId);
            unmerge.sources().forEach(source -> undos.add(new Undo(unmerge.mergeId(), source, unmerge.opId())));
        });
    }

    @Override
    public JournalEntry resumedMoves(UUID opId, List<Move> moves, List<UUID> notMoved) {
        return transaction -> InMemoryTransaction.write(transaction, () -> {
            var entry = operations.get(opId);
            notMoved.forEach(entry.moves::remove);
            moves.forEach(move -> entry.moves.put(move.pid(), move));
        });
    }

    private void record(Operation operation, List<Move> moves, UUID requestId) {
        var recorded = new Operation(operation.opId(), operation.kind(), operation.target(), operation.sources(),
                operation.mergeId(), requestId);
        var entry = new Entry(recorded, ++seq);
        moves.forEach(move -> entry.moves.put(move.pid(), move));
        operations.put(operation.opId(), entry);
    }

    @Override
    public boolean abandonWhileHolding(UUID opId, Lease held) {
        var entry = operations.get(opId);
        if (entry == null || entry.state != State.PENDING || !locks.holds(held)) {
            return false;
        }
        entry.state = State.ABANDONED;
        undos.removeIf(undo -> undo.unmergeId().equals(opId));
        return true;
    }

    @Override
    public boolean isPending(UUID opId) {
        var entry = operations.get(opId);
        return entry != null && entry.state == State.PENDING;
    }

    @Override
    public boolean finish(UUID opId, boolean applied) {
        var entry = operations.get(opId);
        if (entry == null || entry.state != State.PENDING) {
            return false;
        }
        entry.state = applied ? State.APPLIED : State.ABANDONED;
        if (!applied) {
            undos.removeIf(undo -> undo.unmergeId().equals(opId));
        }
        return true;
    }

    /** The twin has no clock: every pending operation counts as old enough. */
    @Override
    public List<Operation> pending(Duration olderThan) {
        return operations.values().stream().filter(e -> e.state == State.PENDING).map(e -> e.operation).toList();
    }

    @Override
    public Optional<Operation> mergeToUndo(UUID target, UUID source, UUID mergeId) {
        return operations.values().stream()
                .filter(e -> e.operation.kind() == Kind.MERGE && e.state == State.APPLIED)
                .filter(e -> e.operation.target().equals(target))
                .filter(e -> mergeId == null || e.operation.opId().equals(mergeId))
                .filter(e -> source == null || e.operation.sources().contains(source))
                .max(Comparator.comparingLong(e -> e.seq)).map(e -> e.operation);
    }

    @Override
    public List<UUID> undone(UUID mergeId) {
        return undos.stream().filter(undo -> undo.mergeId().equals(mergeId)).map(Undo::source).toList();
    }

    @Override
    public List<Move> moves(UUID opId) {
        var entry = operations.get(opId);
        return entry == null ? List.of() : List.copyOf(entry.moves.values());
    }

    @Override
    public Set<UUID> everMergedInto(UUID uid) {
        var below = new LinkedHashSet<UUID>(List.of(uid));
        var toVisit = new ArrayList<>(List.of(uid));
        while (!toVisit.isEmpty()) {
            UUID at = toVisit.remove(toVisit.size() - 1);
            for (var entry : operations.values()) {
                if (entry.operation.kind() != Kind.MERGE || !entry.operation.target().equals(at)
                        || entry.state == State.ABANDONED) {
                    continue;
                }
                for (UUID source : entry.operation.sources()) {
                    if (!undoneByApplied(entry.operation.opId(), source) && below.add(source)) {
                        toVisit.add(source);
                    }
                }
            }
        }
        below.remove(uid);
        return below;
    }

    @Override
    public boolean pendingOn(Collection<UUID> uids, UUID except) {
        return operations.values().stream().filter(e -> e.state == State.PENDING)
                .filter(e -> !e.operation.opId().equals(except))
                .anyMatch(e -> uids.contains(e.operation.target())
                        || e.operation.sources().stream().anyMatch(uids::contains));
    }

    @Override
    public List<Recorded> history(Collection<UUID> uids, int limit) {
        return operations.values().stream()
                .filter(e -> e.operation.kind() == Kind.MERGE && e.state != State.ABANDONED)
                .filter(e -> uids.contains(e.operation.target())
                        || e.operation.sources().stream().anyMatch(uids::contains))
                .sorted(Comparator.comparingLong((Entry e) -> e.seq).reversed()).limit(limit)
                .map(e -> new Recorded(e.operation.opId(), e.operation.target(), e.operation.sources(), state(e),
                        e.recordedAt, List.copyOf(e.moves.values()), undone(e)))
                .toList();
    }

    private List<Undone> undone(Entry merge) {
        var undone = new ArrayList<Undone>();
        for (var undo : undos) {
            var unmerge = operations.get(undo.unmergeId());
            if (undo.mergeId().equals(merge.operation.opId()) && unmerge != null) {
                // an unmerge of several sources (by the merge's id) moved each profile back to one of them
                undone.add(new Undone(undo.source(), undo.unmergeId(), state(unmerge), unmerge.recordedAt,
                        moves(undo.unmergeId()).stream().filter(move -> move.to().equals(undo.source())).toList()));
            }
        }
        return undone;
    }

    @Override
    public Map<UUID, UUID> parentsInJournal(Collection<UUID> uids) {
        var parents = new HashMap<UUID, UUID>();
        activeEdges(Integer.MAX_VALUE, edges -> edges.stream().filter(edge -> uids.contains(edge.source()))
                .forEach(edge -> parents.put(edge.source(), edge.target())));
        return parents;
    }

    @Override
    public void activeEdges(int batch, Consumer<List<Edge>> each) {
        var edges = new ArrayList<Edge>();
        for (var entry : operations.values()) {
            if (entry.operation.kind() == Kind.MERGE && entry.state == State.APPLIED) {
                entry.operation.sources().stream().filter(source -> undos.stream().noneMatch(
                        undo -> undo.mergeId().equals(entry.operation.opId()) && undo.source().equals(source)))
                        .forEach(source -> edges.add(new Edge(source, entry.operation.target())));
            }
        }
        for (int from = 0; from < edges.size(); from += batch) {
            each.accept(List.copyOf(edges.subList(from, Math.min(edges.size(), from + batch))));
        }
    }

    @Override
    public Optional<Moving> movedBy(UUID pid, long version) {
        return operations.values().stream().filter(entry -> entry.state != State.ABANDONED)
                .filter(entry -> entry.moves.containsKey(pid) && entry.moves.get(pid).version() == version)
                .findFirst().map(entry -> new Moving(entry.operation.opId(), entry.operation.kind(),
                        entry.operation.target(), entry.operation.sources(), List.copyOf(entry.moves.values()),
                        entry.state == State.PENDING));
    }

    @Override
    public Set<UUID> pendingUsers(Collection<UUID> uids) {
        var pending = new HashSet<UUID>();
        operations.values().stream().filter(e -> e.state == State.PENDING).forEach(e -> {
            if (uids.contains(e.operation.target())) {
                pending.add(e.operation.target());
            }
            e.operation.sources().stream().filter(uids::contains).forEach(pending::add);
        });
        return pending;
    }

    private boolean undoneByApplied(UUID mergeId, UUID source) {
        return undos.stream().anyMatch(undo -> undo.mergeId().equals(mergeId) && undo.source().equals(source)
                && operations.containsKey(undo.unmergeId())
                && operations.get(undo.unmergeId()).state == State.APPLIED);
    }

    private static String state(Entry entry) {
        return entry.state.name().toLowerCase();
    }
}
