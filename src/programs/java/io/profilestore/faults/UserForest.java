package io.profilestore.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The users' forest as the journal makes it. Merges and unmerges of a user lock it, so the journal records them in
 * the order their writes carry (each one's fence above the last); one journaled applied wrote its users' rows (by its
 * request or by the recovery), one abandoned wrote none. So the users' rows at the end are the journal's applied
 * operations played in order, from the users the creates made: each user's parent, its master (the root of its chain
 * of parents), and the change that last changed its row. Playing them also says, for each operation, what it saw: a
 * merge's sources (roots), an unmerge's root and the subtree it cut out, which {@link MergeLists} needs.
 */
final class UserForest {

    /** What a merge or unmerge saw when it ran: the root whose profiles it looked at, and the users it cut out. */
    record View(Op op, UUID root, Set<UUID> cut) {

        boolean merge() {
            return op.kind == Op.Kind.MERGE;
        }
    }

    private final Map<UUID, UUID> parent = new HashMap<>();
    private final Map<UUID, UUID> lastWriter = new HashMap<>();
    /** A root: the merges that looked at its profiles (their source), the unmerges that did (their root). */
    final Map<UUID, List<View>> viewsByRoot = new HashMap<>();
    private final List<Op> journaled;

    private UserForest(List<Op> journaled) {
        this.journaled = journaled;
    }

    /** Plays the creates' users and the journal's applied operations, in the journal's order. */
    static UserForest of(Ops ops, FinalState state) {
        var journaled = ops.all.stream().filter(op -> op.operation != null)
                .sorted(Comparator.comparingLong(op -> op.operation.recordedAt())).toList();
        var forest = new UserForest(journaled);
        for (var op : ops.all) {
            if (op.kind == Op.Kind.CREATE && !op.impossible) {
                // a create that made its user wrote its row; a later merge or unmerge of it takes over below
                UUID owner = op.slots.values().iterator().next().uid();
                var user = owner == null ? null : state.users().get(owner);
                if (user != null && Objects.equals(user.writer(), op.writer)) {
                    forest.lastWriter.putIfAbsent(owner, op.writer);
                }
            }
        }
        journaled.forEach(forest::play);
        return forest;
    }

    private void play(Op op) {
        var operation = op.operation;
        if (op.kind == Op.Kind.MERGE) {
            for (UUID source : operation.sources()) {
                viewsByRoot.computeIfAbsent(source, s -> new ArrayList<>()).add(new View(op, source, Set.of()));
                var members = tree(source);
                if (!Objects.equals(parent.get(source), operation.target())) {
                    lastWriter.put(source, op.writer);
                }
                members.stream().filter(m -> !m.equals(source)).forEach(m -> lastWriter.put(m, op.writer));
                parent.put(source, operation.target());
            }
            lastWriter.put(operation.target(), op.writer);
        } else {
            UUID root = root(operation.target());
            for (UUID source : operation.sources()) {
                var cut = tree(source);
                viewsByRoot.computeIfAbsent(root, r -> new ArrayList<>()).add(new View(op, root, cut));
                if (parent.get(source) != null) {
                    lastWriter.put(source, op.writer);
                }
                cut.stream().filter(m -> !m.equals(source)).forEach(m -> lastWriter.put(m, op.writer));
                parent.remove(source);
            }
            lastWriter.put(root, op.writer);
        }
    }

    /** The user and every user whose chain of parents reaches it. */
    private Set<UUID> tree(UUID top) {
        var members = new HashSet<UUID>(Set.of(top));
        boolean grew = true;
        while (grew) {
            grew = false;
            for (var entry : parent.entrySet()) {
                if (entry.getValue() != null && members.contains(entry.getValue()) && members.add(entry.getKey())) {
                    grew = true;
                }
            }
        }
        return members;
    }

    private UUID root(UUID uid) {
        var seen = new HashSet<UUID>();
        UUID at = uid;
        while (parent.get(at) != null && seen.add(at)) {
            at = parent.get(at);
        }
        return at;
    }

    /** Each user's row against the play: its parent, its master, and the change that last changed it. */
    void check(FinalState state, Ops ops, List<String> violations) {
        state.users().forEach((uid, row) -> {
            UUID expectedParent = parent.get(uid);
            UUID expectedMaster = expectedParent == null ? null : root(uid);
            if (!Objects.equals(row.parent(), expectedParent) || !Objects.equals(row.master(), expectedMaster)) {
                violations.add("user: " + uid + " is merged into " + row.parent() + " (master " + row.master() + "); the"
                        + " journal's applied merges and unmerges leave it " + (expectedParent == null ? "merged into nobody"
                        : "merged into " + expectedParent + " (master " + expectedMaster + ")"));
            }
            UUID writer = lastWriter.get(uid);
            if (row.writer() != null && !row.writer().equals(writer) && !ops.systemWriters.contains(row.writer())) {
                violations.add("user: " + uid + "'s row says " + row.writer() + " wrote it, but the change that last"
                        + " changed it is " + (writer == null ? "none the history or the journal knows" : writer));
            }
        });
        lastWriter.keySet().stream().filter(uid -> !state.users().containsKey(uid)).forEach(uid -> violations.add(
                "user: " + uid + " was made or changed, and has no row"));
    }

    /**
     * A create or move by hand gives a profile to a user that is no root: for an acknowledged one, a merge of that
     * user that surely landed before it began, with no unmerge of it that may have begun before it ended.
     */
    void checkTargets(Ops ops, List<String> violations) {
        for (var op : ops.all) {
            if (!op.acked || op.kind != Op.Kind.CREATE && op.kind != Op.Kind.MOVE || op.event.uid() == null) {
                continue;
            }
            UUID target = op.event.uid();
            for (int i = 0; i < journaled.size(); i++) {
                var merge = journaled.get(i);
                // surely landed by then: its answer, or the journal's mark that it was applied
                long landed = merge.acked ? merge.landUntil : merge.operation.finishedAt() == null ? Op.OPEN
                        : merge.operation.finishedAt() + Ops.CLOCKS;
                if (merge.kind != Op.Kind.MERGE || !merge.operation.sources().contains(target) || landed >= op.readFrom) {
                    continue;
                }
                boolean undone = journaled.subList(i + 1, journaled.size()).stream().anyMatch(later ->
                        later.kind == Op.Kind.UNMERGE && later.operation.sources().contains(target)
                                && later.readFrom < op.readUntil);
                if (!undone) {
                    violations.add("user: " + op + " gave a profile to " + target + ", which " + merge + " had merged"
                            + " into " + merge.operation.target() + " before it began");
                    break;
                }
            }
        }
    }
}
