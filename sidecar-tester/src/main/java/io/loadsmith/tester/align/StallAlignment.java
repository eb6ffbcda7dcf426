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
 * Lines up one run's requests with the stall windows it met, in one pass over its request log (memory is
 * bounded by the number of stalls and the scatter cap, not by the number of requests).
 *
 * <p>All times are nanoseconds on the tester's clock: move the agent's windows there first
 * ({@code ServerStall.onTesterClock}). A stall is <em>met</em> when its whole window lies inside the
 * counted span; the summary, the bins and the scatter use only stalls met, the per-stall list has every
 * stall. Requests intended before the counted span (a warm-up) are ignored. Each bin is averaged over the
 * stalls met whose bin lies inside the counted span (a stall 50 ms after the start has no bins before
 * -50 ms: they do not count as zero sends).
 *
 * <p>Definitions, per stall {@code [start, end)}: sent during = {@code start <= sent < end}; intended
 * during = {@code start <= intended < end}; in flight at start = {@code sent < start < end-of-request};
 * overlapping = the request's lifetime {@code [min(intended, sent), end)} meets the window (the lifetime
 * that corrected latency measures; a request that never ended is alive until the end of time). Requests
 * never sent count only for "intended during".
 *
 * <pre>{@code
 * StallAlignment alignment = new StallAlignment(windows, countStartNanos, countEndNanos,
 *         AlignedBins.forStall(100_000_000L), 2000, seed);
 * for (RequestRecord r : RequestLog.read(log)) alignment.add(r.intendedNanos(), r.sentNanos(), r.endNanos());
 * RunAlignment result = alignment.finish();
 * }</pre>
 *
 * <p>Not thread-safe: feed it from one thread.
 */
public final class StallAlignment {

    /** Scatter points kept per run unless told otherwise. */
    public static final int DEFAULT_SCATTER_CAP = 2000;

    private final StallWindow[] stalls;
    private final boolean[] met;
    private final long countStartNanos;
    private final long countEndNanos;
    private final long longestStallNanos;
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
    private int stallsMet;
    private boolean finished;

    /**
     * @param windows         the stalls, on the tester's clock (any order)
     * @param countStartNanos start of the counted span (the moment the run's schedule starts)
     * @param countEndNanos   end of the counted span (when the run stopped sending)
     * @param bins            the geometry of the stall-aligned bins
     * @param scatterCap      at most this many scatter points are kept (a seeded uniform sample of them)
     * @param scatterSeed     seed of that sample, so a run's scatter is reproducible
     */
    public StallAlignment(List<StallWindow> windows, long countStartNanos, long countEndNanos, AlignedBins bins,
                          int scatterCap, long scatterSeed) {
        if (countEndNanos < countStartNanos) {
            throw new IllegalArgumentException("counted span ends before it starts");
        }
        if (scatterCap < 0) {
            throw new IllegalArgumentException("scatterCap must be >= 0 (got " + scatterCap + ")");
        }
        this.stalls = windows.stream().sorted(Comparator.comparingLong(StallWindow::startNanos))
                .toArray(StallWindow[]::new);
        this.countStartNanos = countStartNanos;
        this.countEndNanos = countEndNanos;
        this.bins = bins;
        this.scatterCap = scatterCap;
        this.scatterRandom = new SplittableRandom(scatterSeed);
        int n = stalls.length;
        this.met = new boolean[n];
        long longest = 0;
        for (int i = 0; i < n; i++) {
            met[i] = stalls[i].startNanos() >= countStartNanos && stalls[i].endNanos() <= countEndNanos;
            if (met[i]) {
                stallsMet++;
            }
            longest = Math.max(longest, stalls[i].durationNanos());
        }
        this.longestStallNanos = longest;
        this.sentDuring = new long[n];
        this.intendedDuring = new long[n];
        this.inFlightAtStart = new long[n];
        this.overlapping = new long[n];
        this.sendsPerBinTotal = new long[bins.binCount()];
    }

    /**
     * Counts one request that does not say which replica served it (it counts against every window).
     *
     * @param intendedNanos its intended send
     * @param sentNanos     its actual send, or -1 if it was never sent
     * @param endNanos      its end, or -1 if it never ended
     */
    public void add(long intendedNanos, long sentNanos, long endNanos) {
        add(intendedNanos, sentNanos, endNanos, StallWindow.NO_REPLICA);
    }

    /**
     * Counts one request served by replica {@code servedBy}: it counts only for that replica's windows (and
     * for windows of no replica); {@link StallWindow#NO_REPLICA} counts against every window.
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
        for (int k = firstStartingAfter(beginNanos - longestStallNanos); k < stalls.length
                && stalls[k].startNanos() < lastNanos; k++) {
            StallWindow stall = stalls[k];
            if (!stall.counts(servedBy)) {
                continue;
            }
            if (stall.endNanos() > beginNanos) {
                overlapping[k]++;
                overlapsMet |= met[k];
            }
            if (sentNanos < stall.startNanos() && lastNanos > stall.startNanos()) {
                inFlightAtStart[k]++;
            }
        }
        if (overlapsMet) {
            overlappingRequests++;
        }
        addToBins(intendedNanos, sentNanos, endNanos, servedBy);
    }

    private void addToBins(long intendedNanos, long sentNanos, long endNanos, int servedBy) {
        // stalls whose bins hold this send: fromNanos <= sent - start < toNanos
        int drawnAgainst = -1;
        for (int k = firstStartingAfter(sentNanos - bins.toNanos()); k < stalls.length
                && stalls[k].startNanos() <= sentNanos - bins.fromNanos(); k++) {
            if (!met[k] || !stalls[k].counts(servedBy)) {
                continue;
            }
            int bin = bins.binOf(sentNanos - stalls[k].startNanos());
            if (bin >= 0) {
                sendsPerBinTotal[bin]++;
                drawnAgainst = k;
            }
        }
        if (drawnAgainst >= 0 && endNanos >= 0) {
            offerScatter(new ScatterPoint(sentNanos - stalls[drawnAgainst].startNanos(), endNanos - intendedNanos));
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
     * Adds one to {@code counts} of each window with {@code start <= nanos < end} that a request served by
     * {@code servedBy} counts for (the windows of one agent never overlap; those of replicas may).
     */
    private void countContaining(long nanos, int servedBy, long[] counts) {
        for (int k = firstStartingAfter(nanos - longestStallNanos); k < stalls.length
                && stalls[k].startNanos() <= nanos; k++) {
            if (nanos < stalls[k].endNanos() && stalls[k].counts(servedBy)) {
                counts[k]++;
            }
        }
    }

    /** The first stall whose start is > nanos (stalls.length if none). */
    private int firstStartingAfter(long nanos) {
        int low = 0;
        int high = stalls.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (stalls[mid].startNanos() > nanos) {
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
    public static RunAlignment alignLog(Path requestLog, List<StallWindow> windows, long durationNanos,
                                        AlignedBins bins, int scatterCap, long scatterSeed) throws IOException {
        return alignLog(requestLog, windows, durationNanos, bins, scatterCap, scatterSeed, servedBy -> StallWindow.NO_REPLICA);
    }

    /**
     * {@link #alignLog(Path, List, long, AlignedBins, int, long)} with each request counted for the windows
     * of the replica that served it: {@code replicaOf} maps a record's served by to a window's
     * {@link StallWindow#replica()} ({@link StallWindow#NO_REPLICA}: every window).
     */
    public static RunAlignment alignLog(Path requestLog, List<StallWindow> windows, long durationNanos,
                                        AlignedBins bins, int scatterCap, long scatterSeed, IntUnaryOperator replicaOf)
            throws IOException {
        try (RequestLog.Reader records = RequestLog.read(requestLog)) {
            long startNanos = records.runStartNanos();
            StallAlignment alignment = new StallAlignment(windows, startNanos, startNanos + durationNanos, bins,
                    scatterCap, scatterSeed);
            while (records.hasNext()) {
                RequestRecord r = records.next();
                alignment.add(r.intendedNanos(), r.sentNanos(), r.endNanos(), replicaOf.applyAsInt(r.servedBy()));
            }
            return alignment.finish();
        }
    }

    /** The result; call once, after the last {@link #add}. */
    public RunAlignment finish() {
        finished = true;
        List<StallCount> counts = new ArrayList<>(stalls.length);
        long sentDuringTotal = 0;
        for (int k = 0; k < stalls.length; k++) {
            StallWindow stall = stalls[k];
            counts.add(new StallCount(stall.index(), stall.startNanos(), stall.endNanos(), stall.held(),
                    sentDuring[k], intendedDuring[k], inFlightAtStart[k], overlapping[k], met[k], stall.replica()));
            if (met[k]) {
                sentDuringTotal += sentDuring[k];
            }
        }
        double share = sentRequests == 0 ? 0.0 : overlappingRequests / (double) sentRequests;
        StallSummary summary = new StallSummary(stallsMet, sentDuringTotal, share, share > StallSummary.P99_SHARE,
                sentRequests, overlappingRequests);
        double[] perBin = new double[sendsPerBinTotal.length];
        for (int b = 0; b < perBin.length; b++) {
            int covering = 0;
            for (int k = 0; k < stalls.length; k++) {
                long binStart = stalls[k].startNanos() + bins.fromNanos() + b * bins.binNanos();
                covering += met[k] && binStart >= countStartNanos && binStart + bins.binNanos() <= countEndNanos ? 1 : 0;
            }
            perBin[b] = covering == 0 ? 0.0 : sendsPerBinTotal[b] / (double) covering;
        }
        List<ScatterPoint> scatter = new ArrayList<>(reservoir);
        scatter.sort(Comparator.comparingLong(ScatterPoint::offsetNanos).thenComparingLong(ScatterPoint::correctedNanos));
        return new RunAlignment(counts, summary, bins, perBin, scatter);
    }
}
