package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes and reads of some profiles, under one choice of who made which version, placed in real time
 * ({@link TimeOrder}): each change's read point within its request's time, and its landing after it (an acknowledged
 * one's before its answer), each version landed before the change that replaced it read it,
 * and each read between the landing of the version it saw and the next. A read may also have seen a write with no
 * answer that lost its version to a newer one: it landed after the newer one read, and was visible until the newer
 * one landed (or the row was written again as it stood). Says whether that is possible, and when each version may
 * have been visible.
 */
final class Placement {

    /** A change's two points: when it read (and decided), and when its write became visible. */
    record Points(int read, int land) {
    }

    /** A read that found no profile that was erased at the end: before its create landed, or after its erase did. */
    record Absent(Ops.Read read, int point, int created, int erased) {
    }

    final TimeOrder order = new TimeOrder();
    private final Map<Op, Points> points = new HashMap<>();
    private final List<Op> byPoint = new ArrayList<>();
    private final Map<Integer, ProfileChain> readOf = new HashMap<>();

    Points of(Op op) {
        return points.computeIfAbsent(op, o -> {
            int read = point(o + " read", o.readFrom, o.readUntil, o);
            int land = point(o + " landed", o.readFrom, o.landUntil, o);
            order.before(read, land);
            return new Points(read, land);
        });
    }

    private int point(String label, long from, long until, Op op) {
        int n = order.point(label, from, until);
        while (byPoint.size() <= n) {
            byPoint.add(null);
        }
        byPoint.set(n, op);
        return n;
    }

    /** The change a point belongs to (null for a read's). */
    Op opAt(int point) {
        return point < byPoint.size() ? byPoint.get(point) : null;
    }

    /** The profile a read's point is of (null for a change's). */
    ProfileChain readAt(int point) {
        return readOf.get(point);
    }

    /**
     * Adds one profile's chain under a choice: its makers in order, its eraser, and the reads that saw a write that
     * lost its version ({@code seenLate}: the read, the change it saw); returns its reads that found nothing.
     */
    List<Absent> add(ProfileChain chain, List<Op> makers, Op eraser, Map<Ops.Read, Op> seenLate) {
        var absent = new ArrayList<Absent>();
        makers.forEach(this::of);
        if (eraser != null) {
            of(eraser);
        }
        for (int k = 1; k < makers.size(); k++) {
            order.before(of(makers.get(k - 1)).land(), of(makers.get(k)).read());
        }
        if (eraser != null && !makers.isEmpty()) {
            order.before(of(makers.get(makers.size() - 1)).land(), of(eraser).read());
        }
        for (var read : chain.reads) {
            var event = read.event();
            int at = point(event.op() + " #" + event.id(), event.start(), event.end(), null);
            readOf.put(at, chain);
            var late = seenLate.get(read);
            int k = (int) read.version();
            Op overwriter = k >= 1 && k <= makers.size() ? makers.get(k - 1) : k == makers.size() + 1 ? eraser : null;
            if (late != null) {
                if (k >= 2) {
                    order.before(of(makers.get(k - 2)).land(), of(late).read());
                }
                if (overwriter != null && overwriter != late) {
                    order.before(of(late).read(), of(overwriter).read());
                    order.before(of(overwriter).read(), of(late).land());
                    order.before(at, of(overwriter).land());
                }
                order.before(of(late).land(), at);
            } else if (k >= 1 && k <= makers.size()) {
                order.before(of(makers.get(k - 1)).land(), at);
                Op next = k < makers.size() ? makers.get(k) : eraser;
                if (next != null) {
                    order.before(at, of(next).land());
                }
            } else if (k == 0 && !makers.isEmpty() && eraser == null) {
                // not found while it exists at the end: before its create landed
                order.before(at, of(makers.get(0)).land());
            } else if (k == 0 && eraser != null) {
                absent.add(new Absent(read, at, makers.isEmpty() ? -1 : of(makers.get(0)).land(), of(eraser).land()));
            }
        }
        return absent;
    }

    /** Whether a read that found nothing can be placed before the create landed or after the erase did. */
    boolean placeable(Absent absent) {
        return absent.created() >= 0 && order.earliest(absent.point()) < order.latest(absent.created())
                || order.latest(absent.point()) > order.earliest(absent.erased());
    }

    boolean solve() {
        return order.solve();
    }

    String conflict() {
        return order.conflict();
    }
}
