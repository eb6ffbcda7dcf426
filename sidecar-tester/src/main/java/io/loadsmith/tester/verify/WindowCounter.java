package io.loadsmith.tester.verify;

import io.loadsmith.tester.record.RequestRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Counts a run's requests against a list of windows ({@code [start, end)}, tester clock), the same way for
 * stalls and pauses (docs/alignment.md, "What is counted"). Fed one request at a time; a window is
 * <em>met</em> when it lies wholly inside the counted span. In a run armed on several agents a request whose
 * served by names one of the run's replicas counts only for that replica's windows ({@link Window#counts}).
 * Not thread-safe.
 */
final class WindowCounter {

    private final List<Window> windows;
    private final boolean[] met;
    private final Map<Integer, String> replicaOfServedBy;
    final long[] sentDuring;
    final long[] intendedDuring;
    final long[] inFlightAtStart;
    final long[] overlapping;
    /** Requests that reached the socket (a send time), the share's denominator. */
    long sent;
    /** Of those, the requests whose lifetime met a window that was met. */
    long overlappingMet;

    WindowCounter(List<Window> windows, long countStartNanos, long countEndNanos) {
        this(windows, countStartNanos, countEndNanos, Map.of());
    }

    /**
     * @param replicaOfServedBy the admin URL of each replica by the number of its id in {@code requests.bin}'s
     *                          served by ({@code runs[].replicas[].served_by}); empty with one agent
     */
    WindowCounter(List<Window> windows, long countStartNanos, long countEndNanos,
                  Map<Integer, String> replicaOfServedBy) {
        this.windows = List.copyOf(windows);
        this.replicaOfServedBy = Map.copyOf(replicaOfServedBy);
        int n = windows.size();
        met = new boolean[n];
        for (int k = 0; k < n; k++) {
            met[k] = windows.get(k).startNanos() >= countStartNanos && windows.get(k).endNanos() <= countEndNanos;
        }
        sentDuring = new long[n];
        intendedDuring = new long[n];
        inFlightAtStart = new long[n];
        overlapping = new long[n];
    }

    List<Window> windows() {
        return windows;
    }

    boolean met(int k) {
        return met[k];
    }

    int metCount() {
        int count = 0;
        for (boolean m : met) {
            count += m ? 1 : 0;
        }
        return count;
    }

    long sentDuringMet() {
        long total = 0;
        for (int k = 0; k < met.length; k++) {
            total += met[k] ? sentDuring[k] : 0;
        }
        return total;
    }

    /** The time the windows met cover, nanoseconds, overlapping windows counted once. */
    long coveredMetNanos() {
        long covered = 0;
        long reached = Long.MIN_VALUE;
        List<Window> met = new ArrayList<>();
        for (int k = 0; k < windows.size(); k++) {
            if (this.met[k]) {
                met.add(windows.get(k));
            }
        }
        met.sort(Comparator.comparingLong(Window::startNanos));
        for (Window w : met) {
            long from = Math.max(w.startNanos(), reached);
            if (w.endNanos() > from) {
                covered += w.endNanos() - from;
                reached = w.endNanos();
            }
        }
        return covered;
    }

    void add(RequestRecord r) {
        boolean sentAtAll = r.sentNanos() >= 0;
        long lifeStart = sentAtAll ? Math.min(r.intendedNanos(), r.sentNanos()) : 0;
        long lifeEnd = r.endNanos() < 0 ? Long.MAX_VALUE : r.endNanos();
        boolean metOne = false;
        String servedBy = r.servedBy() == 0 ? null : replicaOfServedBy.get(r.servedBy());
        for (int k = 0; k < met.length; k++) {
            Window w = windows.get(k);
            if (!w.counts(servedBy)) {
                continue;
            }
            if (inside(r.intendedNanos(), w)) {
                intendedDuring[k]++;
            }
            if (!sentAtAll) {
                continue;
            }
            if (inside(r.sentNanos(), w)) {
                sentDuring[k]++;
            }
            if (r.sentNanos() < w.startNanos() && lifeEnd > w.startNanos()) {
                inFlightAtStart[k]++;
            }
            if (lifeStart < w.endNanos() && lifeEnd > w.startNanos()) {
                overlapping[k]++;
                metOne |= met[k];
            }
        }
        if (sentAtAll) {
            sent++;
            overlappingMet += metOne ? 1 : 0;
        }
    }

    private static boolean inside(long nanos, Window w) {
        return w.startNanos() <= nanos && nanos < w.endNanos();
    }
}
