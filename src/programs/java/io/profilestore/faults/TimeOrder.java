package io.profilestore.faults;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Whether points in time can be placed as a history needs them: each point within its bounds (a request's read point
 * between its start and its end), and each before the points it must precede (a version's landing before the read of
 * the change that replaced it). Such a placement exists exactly when the "before" edges make no cycle and each point's
 * earliest time (its lower bound, or just after the earliest of what must precede it) is within its upper bound: the
 * earliest times are then a placement. Also gives each point's latest time, for questions of "could it have been
 * between these two".
 */
final class TimeOrder {

    private final List<String> labels = new ArrayList<>();
    private long[] lo = new long[16];
    private long[] hi = new long[16];
    private final List<List<Integer>> after = new ArrayList<>();
    private final List<List<Integer>> before = new ArrayList<>();
    private long[] earliest;
    private long[] latest;
    private String conflict;
    private final List<Integer> conflictPoints = new ArrayList<>();

    /** A point within {@code [from, until]}; returns its number. */
    int point(String label, long from, long until) {
        int n = labels.size();
        if (n == lo.length) {
            lo = Arrays.copyOf(lo, n * 2);
            hi = Arrays.copyOf(hi, n * 2);
        }
        labels.add(label);
        lo[n] = from;
        hi[n] = until;
        after.add(new ArrayList<>());
        before.add(new ArrayList<>());
        return n;
    }

    /** Point {@code a} comes strictly before point {@code b}. */
    void before(int a, int b) {
        after.get(a).add(b);
        before.get(b).add(a);
    }

    /** Whether a placement exists; when not, {@link #conflict()} says why. */
    boolean solve() {
        int n = labels.size();
        var order = topologicalOrder();
        if (order == null) {
            return false;
        }
        earliest = new long[n];
        var cause = new int[n];
        Arrays.fill(cause, -1);
        for (int node : order) {
            earliest[node] = lo[node];
            for (int previous : before.get(node)) {
                if (earliest[previous] + 1 > earliest[node]) {
                    earliest[node] = earliest[previous] + 1;
                    cause[node] = previous;
                }
            }
            if (earliest[node] > hi[node]) {
                conflict = "no placement in real time: " + chain(cause, node) + " must all come in this order, but "
                        + labels.get(node) + " ends before the first of them can begin";
                for (int at = node; at >= 0; at = cause[at]) {
                    conflictPoints.add(at);
                }
                return false;
            }
        }
        latest = new long[n];
        for (int i = order.size() - 1; i >= 0; i--) {
            int node = order.get(i);
            latest[node] = hi[node];
            for (int next : after.get(node)) {
                latest[node] = Math.min(latest[node], latest[next] - 1);
            }
        }
        return true;
    }

    long earliest(int point) {
        return earliest[point];
    }

    long latest(int point) {
        return latest[point];
    }

    String conflict() {
        return conflict;
    }

    /** The points of the conflict: a chain that cannot fit, or the points left on a cycle. */
    List<Integer> conflictPoints() {
        return conflictPoints;
    }

    private String chain(int[] cause, int node) {
        var path = new ArrayDeque<String>();
        for (int at = node; at >= 0 && path.size() < 12; at = cause[at]) {
            path.addFirst(labels.get(at));
        }
        return String.join(" < ", path);
    }

    /** Kahn's order, or null (and the conflict set) when the edges make a cycle. */
    private List<Integer> topologicalOrder() {
        int n = labels.size();
        var incoming = new int[n];
        for (int node = 0; node < n; node++) {
            for (int next : after.get(node)) {
                incoming[next]++;
            }
        }
        var ready = new ArrayDeque<Integer>();
        for (int node = 0; node < n; node++) {
            if (incoming[node] == 0) {
                ready.add(node);
            }
        }
        var order = new ArrayList<Integer>(n);
        while (!ready.isEmpty()) {
            int node = ready.poll();
            order.add(node);
            for (int next : after.get(node)) {
                if (--incoming[next] == 0) {
                    ready.add(next);
                }
            }
        }
        if (order.size() < n) {
            var left = new ArrayList<String>();
            for (int node = 0; node < n; node++) {
                if (incoming[node] > 0) {
                    conflictPoints.add(node);
                    if (left.size() < 12) {
                        left.add(labels.get(node));
                    }
                }
            }
            conflict = "the order the versions need goes round: " + String.join(", ", left);
            return null;
        }
        return order;
    }
}
