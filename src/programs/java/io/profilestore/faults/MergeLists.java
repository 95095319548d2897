package io.profilestore.faults;

import java.util.HashSet;
import java.util.List;
import java.util.UUID;

/**
 * A merge takes every profile under its source, an unmerge every profile under its root whose own user is in the
 * subtree it cuts out. So a profile a merge or unmerge (or the recovery completing it) did not move, in the choice
 * being judged, was, when it read for the last time, not under that user (not created yet, moved away, erased, or under it only through a
 * write that landed later). Under one choice of who made the profile's versions and their placement in real time
 * ({@link Placement}), there must be a version the profile could have shown when the operation read that it would
 * not have taken. The one thing a late write may leave that no merge takes is a profile under a user merged after it
 * read: that one's version lands later, and is visible after, which this allows.
 */
final class MergeLists {

    private MergeLists() {
    }

    /**
     * What is wrong with the profile's chain against the merges and unmerges that did not take it, or null.
     *
     * @param makers    who made versions 1..N
     * @param eraser    the erase that removed it, or null
     */
    static String check(ProfileChain chain, List<Op> makers, Op eraser, Placement placement, UserForest forest) {
        var held = chain.held(makers);
        var roots = new HashSet<UUID>();
        held.forEach(version -> roots.add(version.uid()));
        for (var root : roots) {
            for (var view : forest.viewsByRoot.getOrDefault(root, List.of())) {
                // taken: the operation (its request, or the recovery that completed it) made a version of it
                boolean took = makers.stream().anyMatch(maker -> maker.writer != null && maker.writer.equals(view.op().writer)
                        && maker.slots.get(chain.pid).from() != null);
                if (took || couldHaveMissed(chain, view, makers, eraser, held, placement)) {
                    continue;
                }
                return view.op() + " " + (view.merge() ? "took what was under " + root : "brought back what "
                        + view.op().operation.sources() + " held under " + root) + " and not this profile, which was there"
                        + " whenever it could have read";
            }
        }
        return null;
    }

    /**
     * Whether some version the profile could have shown while the operation read is one it would not take: j = 0
     * (not created yet), 1..N (version j, visible from its landing to the next one's), or, erased, after the erase.
     */
    private static boolean couldHaveMissed(ProfileChain chain, UserForest.View view, List<Op> makers, Op eraser,
            List<ProfileChain.Held> held, Placement placement) {
        var order = placement.order;
        long from = view.op().lastReadFrom;
        long until = view.op().lastReadUntil;
        int versions = makers.size();
        for (int j = 0; j <= versions + (eraser != null ? 1 : 0); j++) {
            boolean shown = j >= 1 && j <= versions;
            if (shown && takes(view, held.get(j - 1))) {
                continue;
            }
            long visibleFrom = j == 0 ? Long.MIN_VALUE
                    : order.earliest(j <= versions ? placement.of(makers.get(j - 1)).land() : placement.of(eraser).land());
            long visibleUntil = j < versions ? order.latest(placement.of(makers.get(j)).land())
                    : j == versions && eraser != null ? order.latest(placement.of(eraser).land()) : Long.MAX_VALUE;
            if (visibleFrom < until && from < visibleUntil) {
                return true;
            }
        }
        return false;
    }

    /** Whether the operation takes a profile showing this version. */
    private static boolean takes(UserForest.View view, ProfileChain.Held version) {
        if (!ProfileChain.same(view.root(), version.uid()) || Ops.ANY_USER.equals(version.uid())) {
            return false;
        }
        return view.merge() || version.home() != null && view.cut().contains(version.home());
    }
}
