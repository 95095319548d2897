package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * One profile's possible histories. Each accepted change adds exactly one to a profile's version, so its versions
 * 1..N (N: the final row's) were each made by exactly one change, a create first; an erased profile's last version was
 * replaced by the erase that removed it. The changes that may have made version k are those that said they replace
 * version k - 1 (If-Match, a batch's own), answered k, or were journaled at k (a merge); a check-tables repair may
 * have made any one. {@link OutcomeSearch} chooses the makers one version at a time; this class says what each
 * version then held and whether that explains what was seen of it: each read, the final row (version, data, user,
 * own user, and the change the stores say made it), and that each merge or unmerge found the profile under the user
 * it took it from.
 */
final class ProfileChain {

    /** What a version held: its user, its own user (home) and its data's write id. */
    record Held(UUID uid, UUID home, String data) {

        static final Held NOTHING = new Held(null, null, null);
    }

    final UUID pid;
    /** The final row; null when the profile is gone. */
    final FinalState.Profile last;
    /** version: the changes that may have made it. */
    final Map<Long, List<Op>> candidates = new HashMap<>();
    final List<Op> erases = new ArrayList<>();
    final List<Op> repairs = new ArrayList<>();
    final List<Ops.Read> reads;
    /** version: the reads that saw it (0: those that found no profile). */
    final Map<Long, List<Ops.Read>> readsOf = new HashMap<>();
    /** version: the change the stores say made it (today only the last version's is kept, in its row). */
    final Map<Long, UUID> writers;

    ProfileChain(UUID pid, FinalState.Profile last, List<Op> ops, List<Ops.Read> reads, Map<Long, UUID> writers) {
        this.pid = pid;
        this.last = last;
        this.reads = reads;
        reads.forEach(read -> readsOf.computeIfAbsent(read.version(), v -> new ArrayList<>()).add(read));
        this.writers = new HashMap<>(writers);
        if (last != null && last.writer() != null) {
            this.writers.put(last.version(), last.writer());
        }
        for (var op : ops) {
            if (op.impossible) {
                continue;
            }
            var slot = op.slots.get(pid);
            if (slot.erase()) {
                erases.add(op);
            } else if (slot.version() == 0) {
                repairs.add(op);
            } else {
                candidates.computeIfAbsent(slot.version(), v -> new ArrayList<>()).add(op);
            }
        }
    }

    /** The highest version an acknowledged answer says the profile reached. */
    long highestAcknowledged() {
        long highest = 0;
        for (var list : candidates.values()) {
            for (var op : list) {
                if (op.acked) {
                    highest = Math.max(highest, op.slots.get(pid).version());
                }
            }
        }
        return highest;
    }

    /** What the profile holds once {@code maker} made its next version on top of {@code before}. */
    Held next(Held before, Op maker) {
        var slot = maker.slots.get(pid);
        return new Held(slot.uid() != null ? slot.uid() : before.uid(), slot.home() != null ? slot.home() : before.home(),
                slot.data() != null ? slot.data() : before.data());
    }

    /**
     * What is wrong with {@code maker} having made version {@code k} (the profile held {@code before}, then
     * {@code after}), or null: a merge or unmerge took it from the user it was under, the stores name its writer, and
     * at the last version, the final row holds what it made. Reads are {@link #explains}' to judge.
     */
    String wrongVersion(long k, Held before, Held after, Op maker) {
        var from = maker.slots.get(pid).from();
        if (from != null && k >= 2 && !same(from, before.uid())) {
            return maker + " took the profile from " + from + " at version " + (k - 1) + ", when it was under "
                    + before.uid();
        }
        var writer = writers.get(k);
        if (writer != null && !writer.equals(maker.writer)) {
            return "the stores say " + writer + " made version " + k + ", not " + maker + " (" + maker.writer + ")";
        }
        if (last != null && k == last.version()) {
            if (last.write() != null && !last.write().equals(after.data())) {
                return "holds write " + last.write() + ", but the changes that made its versions leave " + after.data();
            }
            if (!same(last.uid(), after.uid()) || !same(last.home(), after.home())) {
                return "is under " + last.uid() + " (own user " + last.home() + "), but the changes that made its"
                        + " versions leave it under " + after.uid() + " (own user " + after.home() + ")";
            }
        }
        return null;
    }

    /**
     * The users the profile may have been under at version {@code k}: those the changes that may have made it put it
     * under, and for one that keeps its user (a put, a patch, a batch update), those of the version before. Any user
     * when a check-tables repair may have made a version.
     */
    Set<UUID> usersAt(long k) {
        return usersAt(k, new HashMap<>());
    }

    private Set<UUID> usersAt(long k, Map<Long, Set<UUID>> known) {
        if (!repairs.isEmpty()) {
            return Set.of(Ops.ANY_USER);
        }
        if (k < 1 || known.containsKey(k)) {
            return known.getOrDefault(k, Set.of());
        }
        var users = new HashSet<UUID>();
        known.put(k, users); // no change makes the version it replaces: no cycle, but a version is walked once
        for (var op : candidates.getOrDefault(k, List.of())) {
            var uid = op.slots.get(pid).uid();
            if (uid != null) {
                users.add(uid);
            } else {
                users.addAll(usersAt(k - 1, known));
            }
        }
        return users;
    }

    /** Whether a read saw what the version held (its data and its user, as far as the read says). */
    static boolean explains(Ops.Read read, Held held) {
        return (read.write() == null || read.write().equals(held.data()))
                && (read.uid() == null || same(read.uid(), held.uid()));
    }

    /** What each version held, makers played forward from the create. */
    List<Held> held(List<Op> makers) {
        var held = new ArrayList<Held>();
        Held before = Held.NOTHING;
        for (var maker : makers) {
            before = next(before, maker);
            held.add(before);
        }
        return held;
    }

    /** Two users are the same, or one is whatever root a repair chose. */
    static boolean same(UUID a, UUID b) {
        return Objects.equals(a, b) || Ops.ANY_USER.equals(a) || Ops.ANY_USER.equals(b);
    }
}
