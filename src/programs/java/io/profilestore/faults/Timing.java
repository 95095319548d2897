package io.profilestore.faults;

import io.profilestore.faults.ProfileChain.Held;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One profile's versions in real time, as {@link OutcomeSearch} chooses them one by one: the earliest each maker can
 * have read (after the version it replaced landed) and landed (after it read, and after every read of the version it
 * replaced), and the earliest each read of its version can have been answered. A choice that cannot fit fails at the
 * version where it was made. The earliest times are those of {@link Placement} restricted to the profile, so this
 * never refuses a choice the whole placement would take.
 *
 * <p>A read that saw data the version's maker did not write saw a write with no answer that made the same version and
 * lost it to the maker (it landed after the maker read, before the maker landed: a paused writer's), or that a write
 * as it stood replaced again (a batch update or a merge set right by the one that settled it). Which one it saw is
 * decided here, the first that fits.
 */
final class Timing {

    /** The earliest times the next version depends on: the last version's landing, and the latest read of it. */
    record Frontier(long landed, long seen) {

        static final Frontier START = new Frontier(Long.MIN_VALUE / 4, Long.MIN_VALUE / 4);

        /** Whether this frontier leaves the versions after it at least as much room as {@code other}. */
        boolean noLaterThan(Frontier other) {
            return landed <= other.landed && seen <= other.seen;
        }
    }

    private final Frontier frontier;
    private final Map<Ops.Read, Op> seenLate;
    private final String failure;

    private Timing(Frontier frontier, Map<Ops.Read, Op> seenLate, String failure) {
        this.frontier = frontier;
        this.seenLate = seenLate;
        this.failure = failure;
    }

    private static Timing failed(String why) {
        return new Timing(null, Map.of(), why);
    }

    Frontier frontier() {
        return frontier;
    }

    Map<Ops.Read, Op> seenLate() {
        return seenLate;
    }

    /** Why the choice does not fit, or null. */
    String failure() {
        return failure;
    }

    /** {@code maker} made version {@code k} (which held {@code after}) on top of {@code before}. */
    static Timing next(ProfileChain chain, long k, Held before, Op maker, Held after, Frontier frontier,
            List<Op> rivals, Map<Op, Boolean> forced) {
        var late = new HashMap<Ops.Read, Op>();
        var onTime = new ArrayList<Ops.Read>();
        for (var read : chain.readsOf.getOrDefault(k, List.of())) {
            if (ProfileChain.explains(read, after)) {
                onTime.add(read);
                continue;
            }
            var lost = lostBy(chain, read, before, maker, rivals, forced);
            if (lost == null) {
                return failed(read.event().op() + " #" + read.event().id() + " read " + describe(read) + " at version " + k
                        + ", which " + maker + " made holding write " + after.data() + " under " + after.uid());
            }
            late.put(read, lost);
        }
        return overwrite(maker, late, onTime, frontier);
    }

    /**
     * The profile's versions are chosen (the last held {@code end}); {@code eraser} removed it, or null. A read of the
     * version after the last saw a write that lost it: to the erase, or to a write as it stood.
     */
    static Timing end(ProfileChain chain, int versions, Held end, Op eraser, Frontier frontier, Map<Op, Boolean> forced) {
        long above = versions + 1L;
        for (var version : chain.readsOf.keySet()) {
            if (version > above) {
                var read = chain.readsOf.get(version).get(0);
                return failed(read.event().op() + " #" + read.event().id() + " read version " + version + ", above the "
                        + versions + " the profile ever reached");
            }
        }
        var rivals = chain.candidates.getOrDefault(above, List.of());
        var late = new HashMap<Ops.Read, Op>();
        for (var read : chain.readsOf.getOrDefault(above, List.of())) {
            var lost = lostBy(chain, read, end, eraser, rivals, forced);
            if (lost == null) {
                return failed(read.event().op() + " #" + read.event().id() + " read version " + above + " (" + describe(read)
                        + "), which no change that may have happened made and lost");
            }
            late.put(read, lost);
        }
        if (eraser != null) {
            return overwrite(eraser, late, List.of(), frontier);
        }
        // set right as it stood (a batch settled, a merge abandoned): no change made the version that replaced it
        for (var entry : late.entrySet()) {
            var lost = entry.getValue();
            long read = Math.max(lost.readFrom, frontier.landed() + 1);
            long landed = Math.max(lost.readFrom, read + 1);
            long seen = Math.max(entry.getKey().event().start(), landed + 1);
            if (read > lost.readUntil || landed > lost.landUntil || seen > entry.getKey().event().end()) {
                return failed(entry.getKey().event().op() + " #" + entry.getKey().event().id() + " cannot have seen " + lost
                        + ", which could not have landed before it");
            }
        }
        return new Timing(frontier, late, null);
    }

    /**
     * {@code overwriter} read the version before and landed its own, after any write it overwrote ({@code late}: the
     * read that saw it, and the write) landed and was read, and after every read of the version it replaced.
     */
    private static Timing overwrite(Op overwriter, Map<Ops.Read, Op> late, List<Ops.Read> onTime, Frontier frontier) {
        long read = Math.max(overwriter.readFrom, frontier.landed() + 1);
        var lateRead = new HashMap<Op, Long>();
        for (var lost : late.values()) {
            long at = Math.max(lost.readFrom, frontier.landed() + 1);
            if (at > lost.readUntil) {
                return failed(lost + " could not have read the version before " + overwriter + " did");
            }
            lateRead.put(lost, at);
            read = Math.max(read, at + 1);
        }
        if (read > overwriter.readUntil) {
            return failed(overwriter + " could not have read the version it replaced within its time (it landed later)");
        }
        long landed = Math.max(overwriter.readFrom, Math.max(read, frontier.seen()) + 1);
        for (var entry : late.entrySet()) {
            var lost = entry.getValue();
            long lostLanded = Math.max(lost.readFrom, Math.max(lateRead.get(lost), read) + 1);
            long seen = Math.max(entry.getKey().event().start(), lostLanded + 1);
            if (lostLanded > lost.landUntil || seen > entry.getKey().event().end()) {
                return failed(entry.getKey().event().op() + " #" + entry.getKey().event().id() + " cannot have seen "
                        + lost + " between " + overwriter + "'s read and its landing");
            }
            landed = Math.max(landed, seen + 1);
        }
        if (landed > overwriter.landUntil) {
            return failed(overwriter + " cannot have landed after the reads of the version it replaced");
        }
        long seen = Frontier.START.seen();
        for (var onTimeRead : onTime) {
            long at = Math.max(onTimeRead.event().start(), landed + 1);
            if (at > onTimeRead.event().end()) {
                return failed(onTimeRead.event().op() + " #" + onTimeRead.event().id() + " ended before " + overwriter
                        + " could have landed the version it read");
            }
            seen = Math.max(seen, at);
        }
        return new Timing(new Frontier(landed, seen), late, null);
    }

    /**
     * A write with no answer that made the same version as {@code winner} and whose data the read saw: it lost the
     * version (to the winner, or to a write as it stood), or null.
     */
    private static Op lostBy(ProfileChain chain, Ops.Read read, Held before, Op winner, List<Op> rivals,
            Map<Op, Boolean> forced) {
        for (var rival : rivals) {
            boolean setRightAsItStood = rival.kind == Op.Kind.BATCH || rival.kind == Op.Kind.MERGE
                    || rival.kind == Op.Kind.UNMERGE;
            if (rival != winner && !rival.acked && !forced.containsKey(rival) && (winner != null || setRightAsItStood)
                    && ProfileChain.explains(read, chain.next(before, rival))) {
                return rival;
            }
        }
        return null;
    }

    private static String describe(Ops.Read read) {
        return (read.write() == null ? "the profile" : "write " + read.write()) + (read.uid() == null ? "" : " under " + read.uid());
    }
}
