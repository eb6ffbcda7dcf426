package io.loadsmith.tester.align;

import io.loadsmith.tester.record.RequestLog;
import io.loadsmith.tester.record.RequestRecord;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntUnaryOperator;

/**
 * Lines up one run's requests with windows of time (injected stalls, observed pauses), in one pass over its
 * request log (memory is bounded by the number of windows and the scatter cap, not by the number of
 * requests). {@link StallAlignment} and {@link PauseAlignment} give its counts their names.
 *
 * <p>All times are nanoseconds on the tester's clock. A window is <em>met</em> when it lies wholly inside
 * the counted span; the totals, the bins and the scatter use only windows met, the per-window list has every
 * window. Requests intended before the counted span (a warm-up) are ignored. Each bin is averaged over the
 * windows met whose bin lies inside the counted span (a window 50 ms after the start has no bins before
 * -50 ms: they do not count as zero sends). Windows may overlap one another (a sleeper window and the
 * safepoint inside it): a request is then counted for each. A request that names the replica that served
 * it counts only for the windows that {@link AlignedWindow#counts(int) count} it (a stall of another replica
 * does not).
 *
 * <p>Definitions, per window {@code [start, end)}: sent during = {@code start <= sent < end}; intended
 * during = {@code start <= intended < end}; in flight at start = {@code sent < start < end-of-request};
 * overlapping = the request's lifetime {@code [min(intended, sent), end)} meets the window (the lifetime
 * that corrected latency measures; a request that never ended is alive until the end of time). Requests
 * never sent count only for "intended during".
 *
 * <p>Not thread-safe: feed it from one thread.
 *
 * @param <W> the kind of window
 */
public final class WindowAlignment<W extends AlignedWindow> {

    private final List<W> windows;
    private final boolean[] met;
    private final long countStartNanos;
    private final long countEndNanos;
    private final long longestNanos;
    private final AlignedBins bins;
    private final int scatterCap;
    private final SplittableRandom scatterRandom;

    private final long[] sentDuring;
    private final long[] intendedDuring;
    private final long[] inFlightAtStart;
    private final long[] overlapping;
    private final long[] sendsPerBinTotal;
    private final List<ScatterPoint> reservoir = new ArrayList<>();
    private long scatterSeen;
    private long sentRequests;
    private long overlappingRequests;
    private int windowsMet;
    private boolean finished;

    /**
     * @param windows         the windows, on the tester's clock (any order)
     * @param countStartNanos start of the counted span (the moment the run's schedule starts)
     * @param countEndNanos   end of the counted span (when the run stopped sending)
     * @param bins            the geometry of the aligned bins
     * @param scatterCap      at most this many scatter points are kept (a seeded uniform sample of them)
     * @param scatterSeed     seed of that sample, so a run's scatter is reproducible
     */
    public WindowAlignment(List<W> windows, long countStartNanos, long countEndNanos, AlignedBins bins,
                           int scatterCap, long scatterSeed) {
        if (countEndNanos < countStartNanos) {
            throw new IllegalArgumentException("counted span ends before it starts");
        }
        if (scatterCap < 0) {
            throw new IllegalArgumentException("scatterCap must be >= 0 (got " + scatterCap + ")");
        }
        this.windows = windows.stream().sorted(Comparator.comparingLong(AlignedWindow::startNanos)).toList();
        this.countStartNanos = countStartNanos;
        this.countEndNanos = countEndNanos;
        this.bins = bins;
        this.scatterCap = scatterCap;
        this.scatterRandom = new SplittableRandom(scatterSeed);
        int n = this.windows.size();
        this.met = new boolean[n];
        long longest = 0;
        for (int i = 0; i < n; i++) {
            W window = this.windows.get(i);
            met[i] = window.startNanos() >= countStartNanos && window.endNanos() <= countEndNanos;
            if (met[i]) {
                windowsMet++;
            }
            longest = Math.max(longest, window.durationNanos());
        }
        this.longestNanos = longest;
        this.sentDuring = new long[n];
        this.intendedDuring = new long[n];
        this.inFlightAtStart = new long[n];
        this.overlapping = new long[n];
        this.sendsPerBinTotal = new long[bins.binCount()];
    }

    /**
     * Counts one request.
     *
     * @param intendedNanos its intended send
     * @param sentNanos     its actual send, or -1 if it was never sent
     * @param endNanos      its end, or -1 if it never ended
     */
    public void add(long intendedNanos, long sentNanos, long endNanos) {
        add(intendedNanos, sentNanos, endNanos, StallWindow.NO_REPLICA);
    }

    /**
     * Counts one request served by replica {@code servedBy}, only for the windows that count it
     * ({@link AlignedWindow#counts(int)}); {@link StallWindow#NO_REPLICA} counts for every window.
     */
    public void add(long intendedNanos, long sentNanos, long endNanos, int servedBy) {
        if (finished) {
            throw new IllegalStateException("finish() was already called");
        }
        if (intendedNanos < countStartNanos) {
            return;
        }
        countContaining(intendedNanos, servedBy, intendedDuring);
        if (sentNanos < 0) {
            return;
        }
        sentRequests++;
        countContaining(sentNanos, servedBy, sentDuring);
        long beginNanos = Math.min(intendedNanos, sentNanos);
        long lastNanos = endNanos < 0 ? Long.MAX_VALUE : endNanos;
        boolean overlapsMet = false;
        for (int k = firstStartingAfter(beginNanos - longestNanos); k < windows.size()
                && windows.get(k).startNanos() < lastNanos; k++) {
            W window = windows.get(k);
            if (!window.counts(servedBy)) {
                continue;
            }
            if (window.endNanos() > beginNanos) {
                overlapping[k]++;
                overlapsMet |= met[k];
            }
            if (sentNanos < window.startNanos() && lastNanos > window.startNanos()) {
                inFlightAtStart[k]++;
            }
        }
        if (overlapsMet) {
            overlappingRequests++;
        }
        addToBins(intendedNanos, sentNanos, endNanos, servedBy);
    }

    private void addToBins(long intendedNanos, long sentNanos, long endNanos, int servedBy) {
        // windows whose bins hold this send: fromNanos <= sent - start < toNanos
        int drawnAgainst = -1;
        for (int k = firstStartingAfter(sentNanos - bins.toNanos()); k < windows.size()
                && windows.get(k).startNanos() <= sentNanos - bins.fromNanos(); k++) {
            if (!met[k] || !windows.get(k).counts(servedBy)) {
                continue;
            }
            int bin = bins.binOf(sentNanos - windows.get(k).startNanos());
            if (bin >= 0) {
                sendsPerBinTotal[bin]++;
                drawnAgainst = k;
            }
        }
        if (drawnAgainst >= 0 && endNanos >= 0) {
            offerScatter(new ScatterPoint(sentNanos - windows.get(drawnAgainst).startNanos(), endNanos - intendedNanos));
        }
    }

    private void offerScatter(ScatterPoint point) {
        scatterSeen++;
        if (reservoir.size() < scatterCap) {
            reservoir.add(point);
            return;
        }
        long slot = scatterRandom.nextLong(scatterSeen);
        if (slot < scatterCap) {
            reservoir.set((int) slot, point);
        }
    }

    /**
     * Adds one to {@code counts} of every window with {@code start <= nanos < end} that counts a request
     * served by {@code servedBy}.
     */
    private void countContaining(long nanos, int servedBy, long[] counts) {
        for (int k = firstStartingAfter(nanos - longestNanos); k < windows.size()
                && windows.get(k).startNanos() <= nanos; k++) {
            if (nanos < windows.get(k).endNanos() && windows.get(k).counts(servedBy)) {
                counts[k]++;
            }
        }
    }

    /** The first window whose start is > nanos (the number of windows if none). */
    private int firstStartingAfter(long nanos) {
        int low = 0;
        int high = windows.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (windows.get(mid).startNanos() > nanos) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /**
     * Aligns a run's per-request log ({@code requests.bin}): its counted span starts at the log's run start
     * and lasts {@code durationNanos}.
     */
    public static <W extends AlignedWindow> Counted<W> alignLog(Path requestLog, List<W> windows, long durationNanos,
                                                              AlignedBins bins, int scatterCap, long scatterSeed)
            throws IOException {
        return alignLog(requestLog, windows, durationNanos, bins, scatterCap, scatterSeed,
                servedBy -> StallWindow.NO_REPLICA);
    }

    /**
     * {@link #alignLog(Path, List, long, AlignedBins, int, long)} with each request counted only for the
     * windows that count the replica that served it: {@code replicaOf} maps a record's served by to a
     * replica ({@link StallWindow#NO_REPLICA}: every window).
     */
    public static <W extends AlignedWindow> Counted<W> alignLog(Path requestLog, List<W> windows, long durationNanos,
                                                              AlignedBins bins, int scatterCap, long scatterSeed,
                                                              IntUnaryOperator replicaOf) throws IOException {
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            long startNanos = records.runStartNanos();
            WindowAlignment<W> alignment = new WindowAlignment<>(windows, startNanos, startNanos + durationNanos, bins,
                    scatterCap, scatterSeed);
            while (records.hasNext()) {
                RequestRecord r = records.next();
                alignment.add(r.intendedNanos(), r.sentNanos(), r.endNanos(), replicaOf.applyAsInt(r.servedBy()));
            }
            return alignment.finish();
        }
    }

    /** The counts; call once, after the last {@link #add}. */
    public Counted<W> finish() {
        finished = true;
        List<WindowCount<W>> counts = new ArrayList<>(windows.size());
        long sentDuringTotal = 0;
        for (int k = 0; k < windows.size(); k++) {
            counts.add(new WindowCount<>(windows.get(k), sentDuring[k], intendedDuring[k], inFlightAtStart[k],
                    overlapping[k], met[k]));
            if (met[k]) {
                sentDuringTotal += sentDuring[k];
            }
        }
        double[] perBin = new double[sendsPerBinTotal.length];
        for (int b = 0; b < perBin.length; b++) {
            int covering = 0;
            for (int k = 0; k < windows.size(); k++) {
                long binStart = windows.get(k).startNanos() + bins.fromNanos() + b * bins.binNanos();
                covering += met[k] && binStart >= countStartNanos && binStart + bins.binNanos() <= countEndNanos ? 1 : 0;
            }
            perBin[b] = covering == 0 ? 0.0 : sendsPerBinTotal[b] / (double) covering;
        }
        List<ScatterPoint> scatter = new ArrayList<>(reservoir);
        scatter.sort(Comparator.comparingLong(ScatterPoint::offsetNanos).thenComparingLong(ScatterPoint::correctedNanos));
        return new Counted<>(counts, windowsMet, sentDuringTotal, sentRequests, overlappingRequests, bins, perBin,
                scatter);
    }

    /**
     * What one run did around one window. Every count is of requests of the counted run.
     *
     * @param window          the window
     * @param sentDuring      requests actually sent inside it ({@code start <= sent < end})
     * @param intendedDuring  requests whose intended send fell inside it
     * @param inFlightAtStart requests sent before its start and not yet ended at it
     * @param overlapping     requests whose lifetime, from intended send to end, overlaps it
     * @param met             whether it lies wholly inside the counted span of the run
     */
    public record WindowCount<W>(W window, long sentDuring, long intendedDuring, long inFlightAtStart,
                                 long overlapping, boolean met) {
    }

    /**
     * The alignment of one run with its windows.
     *
     * @param windows             one entry per window, in start order
     * @param windowsMet          windows that lie wholly inside the counted span
     * @param sentDuringTotal     requests sent inside the windows met, summed over them
     * @param sentRequests        requests of the counted run that were sent
     * @param overlappingRequests requests whose lifetime overlapped at least one window met
     * @param bins                the geometry of {@code sendsPerBin}
     * @param sendsPerBin         sends per bin of time from a window's start, averaged over the windows met
     * @param scatter             corrected latency against send offset, sorted by offset
     */
    public record Counted<W>(List<WindowCount<W>> windows, int windowsMet, long sentDuringTotal, long sentRequests,
                             long overlappingRequests, AlignedBins bins, double[] sendsPerBin,
                             List<ScatterPoint> scatter) {

        /** Share (0 to 1) of the sent requests whose lifetime overlapped a window met. */
        public double overlappingShare() {
            return sentRequests == 0 ? 0.0 : overlappingRequests / (double) sentRequests;
        }
    }
}
