package io.profilestore.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The changes and reads of some profiles, under one choice of who made which version, placed in real time
 * ({@link TimeOrder}): each change's read point within its request's time (an acknowledged one's, which held its locks
 * until its write was confirmed, also its landing), each version landed before the change that replaced it read it,
 * and each read between the landing of the version it saw and the next. Says whether that is possible, and when each version may have been visible.
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

    Points of(Op op) {
        return points.computeIfAbsent(op, o -> {
            int read = order.point(o + " read", o.readFrom, o.readUntil);
            if (o.atomic()) {
                return new Points(read, read);
            }
            int land = order.point(o + " landed", o.readFrom, o.landUntil);
            order.before(read, land);
            return new Points(read, land);
        });
    }

    /** Adds one profile's chain under a choice: its makers in order and its eraser; returns its reads that found nothing. */
    List<Absent> add(ProfileChain chain, List<Op> makers, Op eraser) {
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
            int at = order.point(event.op() + " #" + event.id(), event.start(), event.end());
            if (read.version() > 0 && read.version() <= makers.size()) {
                order.before(of(makers.get((int) read.version() - 1)).land(), at);
                Op next = read.version() < makers.size() ? makers.get((int) read.version()) : eraser;
                if (next != null) {
                    order.before(at, of(next).land());
                }
            } else if (read.version() == 0 && !makers.isEmpty() && eraser == null) {
                // not found while it exists at the end: before its create landed
                order.before(at, of(makers.get(0)).land());
            } else if (read.version() == 0 && eraser != null) {
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
