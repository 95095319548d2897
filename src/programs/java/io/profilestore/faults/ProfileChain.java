package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One profile's possible histories. Each accepted change adds exactly one to a profile's version, so its versions
 * 1..N (N: the final row's) were each made by exactly one change, a create first; an erased profile's last version was
 * replaced by the erase that removed it. The changes that may have made version k are those that said they replace
 * version k - 1 (If-Match, a batch's own), answered k, or were journaled at k (a merge); a check-tables repair may
 * have made any one. {@link #walk} plays one choice of makers forward and says whether it explains everything seen
 * of the profile: each read, the final row (version, data, user, own user, and the change its row says wrote it), and
 * that each merge or unmerge found the profile under the user it took it from.
 */
final class ProfileChain {

    /** What a version held: its user, its own user (home) and its data's write id. */
    record Held(UUID uid, UUID home, String data) {
    }

    final UUID pid;
    /** The final row; null when the profile is gone. */
    final FinalState.Profile last;
    /** version: the changes that may have made it. */
    final Map<Long, List<Op>> candidates = new HashMap<>();
    final List<Op> erases = new ArrayList<>();
    final List<Op> repairs = new ArrayList<>();
    final List<Ops.Read> reads;
    /** version: the change the stores say made it (today only the last version's is kept, in its row). */
    final Map<Long, UUID> writers;

    ProfileChain(UUID pid, FinalState.Profile last, List<Op> ops, List<Ops.Read> reads, Map<Long, UUID> writers) {
        this.pid = pid;
        this.last = last;
        this.reads = reads;
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

    /** The highest version an acknowledged answer or a read says the profile reached. */
    long highestSeen() {
        long highest = 0;
        for (var list : candidates.values()) {
            for (var op : list) {
                if (op.acked) {
                    highest = Math.max(highest, op.slots.get(pid).version());
                }
            }
        }
        for (var read : reads) {
            highest = Math.max(highest, read.version());
        }
        return highest;
    }

    /**
     * Plays the makers forward (index k - 1 made version k; {@code eraser} removed the last one, or null) and returns
     * what is wrong with that choice, or null when it explains everything seen of the profile.
     */
    String walk(List<Op> makers, Op eraser) {
        var held = held(makers);
        for (int k = 1; k <= makers.size(); k++) {
            var maker = makers.get(k - 1);
            String wrong = tookFrom(maker, k, held);
            if (wrong != null) {
                return wrong;
            }
            var writer = writers.get((long) k);
            if (writer != null && !writer.equals(maker.writer)) {
                return "the stores say " + writer + " made version " + k + ", not " + maker + " (" + maker.writer + ")";
            }
        }
        for (var read : reads) {
            if (read.version() == 0) {
                continue; // not found: a matter of when (TimeOrder)
            }
            if (read.version() > held.size()) {
                return read.event().op() + " #" + read.event().id() + " read version " + read.version() + ", above the "
                        + held.size() + " the profile ever reached";
            }
            var version = held.get((int) read.version() - 1);
            if (read.write() != null && !read.write().equals(version.data())) {
                return read.event().op() + " #" + read.event().id() + " read write " + read.write() + " at version "
                        + read.version() + ", which holds " + version.data() + " (made by " + makers.get((int) read.version() - 1) + ")";
            }
            if (read.uid() != null && !same(read.uid(), version.uid())) {
                return read.event().op() + " #" + read.event().id() + " read the profile under " + read.uid()
                        + " at version " + read.version() + ", which is under " + version.uid();
            }
        }
        if (last == null) {
            return eraser == null ? "the profile is gone, and no erase that may have happened removed it" : null;
        }
        var end = held.get(held.size() - 1);
        if (last.write() != null && !last.write().equals(end.data())) {
            return "holds write " + last.write() + ", but the changes that made its versions leave " + end.data();
        }
        if (!same(last.uid(), end.uid()) || !same(last.home(), end.home())) {
            return "is under " + last.uid() + " (own user " + last.home() + "), but the changes that made its versions"
                    + " leave it under " + end.uid() + " (own user " + end.home() + ")";
        }
        return null;
    }

    /** What each version held, makers played forward from the create. */
    List<Held> held(List<Op> makers) {
        var held = new ArrayList<Held>();
        Held before = new Held(null, null, null);
        for (var maker : makers) {
            var slot = maker.slots.get(pid);
            before = new Held(slot.uid() != null ? slot.uid() : before.uid(), slot.home() != null ? slot.home() : before.home(),
                    slot.data() != null ? slot.data() : before.data());
            held.add(before);
        }
        return held;
    }

    /** A merge or unmerge read the profile under the user it took it from (the version it replaced). */
    private String tookFrom(Op op, int version, List<Held> held) {
        var from = op.slots.get(pid).from();
        if (from == null || version < 2) {
            return null;
        }
        var replaced = held.get(version - 2);
        return same(from, replaced.uid()) ? null : op + " took the profile from " + from + " at version " + (version - 1)
                + ", when it was under " + replaced.uid();
    }

    /** Two users are the same, or one is whatever root a repair chose. */
    static boolean same(UUID a, UUID b) {
        return Objects.equals(a, b) || Ops.ANY_USER.equals(a) || Ops.ANY_USER.equals(b);
    }
}
