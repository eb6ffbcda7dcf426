package io.loadsmith.tester.align;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * Lines up one run's requests with the stall windows it met, in one pass over its request log: the counts
 * of {@link WindowAlignment} (whose javadoc defines them) under the names of stalls.
 *
 * <p>All times are nanoseconds on the tester's clock: move the agent's windows there first
 * ({@code ServerStall.onTesterClock}). A stall is <em>met</em> when its whole window lies inside the
 * counted span; the summary, the bins and the scatter use only stalls met, the per-stall list has every
 * stall.
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

    private final WindowAlignment<StallWindow> windows;

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
        this.windows = new WindowAlignment<>(windows, countStartNanos, countEndNanos, bins, scatterCap, scatterSeed);
    }

    /**
     * Counts one request that does not say which replica served it (it counts against every window).
     *
     * @param intendedNanos its intended send
     * @param sentNanos     its actual send, or -1 if it was never sent
     * @param endNanos      its end, or -1 if it never ended
     */
    public void add(long intendedNanos, long sentNanos, long endNanos) {
        windows.add(intendedNanos, sentNanos, endNanos);
    }

    /**
     * Counts one request served by replica {@code servedBy}: it counts only for that replica's windows (and
     * for windows of no replica); {@link StallWindow#NO_REPLICA} counts against every window.
     */
    public void add(long intendedNanos, long sentNanos, long endNanos, int servedBy) {
        windows.add(intendedNanos, sentNanos, endNanos, servedBy);
    }

    /**
     * Aligns a run's per-request log ({@code requests.bin}): its counted span starts at the log's run start
     * and lasts {@code durationNanos}.
     */
    public static RunAlignment alignLog(Path requestLog, List<StallWindow> windows, long durationNanos,
                                        AlignedBins bins, int scatterCap, long scatterSeed) throws IOException {
        return of(WindowAlignment.alignLog(requestLog, windows, durationNanos, bins, scatterCap, scatterSeed));
    }

    /**
     * {@link #alignLog(Path, List, long, AlignedBins, int, long)} with each request counted for the windows
     * of the replica that served it: {@code replicaOf} maps a record's served by to a window's
     * {@link StallWindow#replica()} ({@link StallWindow#NO_REPLICA}: every window).
     */
    public static RunAlignment alignLog(Path requestLog, List<StallWindow> windows, long durationNanos,
                                        AlignedBins bins, int scatterCap, long scatterSeed, IntUnaryOperator replicaOf)
            throws IOException {
        return of(WindowAlignment.alignLog(requestLog, windows, durationNanos, bins, scatterCap, scatterSeed,
                replicaOf));
    }

    /** The result; call once, after the last {@link #add}. */
    public RunAlignment finish() {
        return of(windows.finish());
    }

    private static RunAlignment of(WindowAlignment.Counted<StallWindow> counted) {
        List<StallCount> counts = new ArrayList<>(counted.windows().size());
        for (WindowAlignment.WindowCount<StallWindow> c : counted.windows()) {
            StallWindow stall = c.window();
            counts.add(new StallCount(stall.index(), stall.startNanos(), stall.endNanos(), stall.held(),
                    c.sentDuring(), c.intendedDuring(), c.inFlightAtStart(), c.overlapping(), c.met(),
                    stall.replica()));
        }
        double share = counted.overlappingShare();
        StallSummary summary = new StallSummary(counted.windowsMet(), counted.sentDuringTotal(), share,
                share > StallSummary.P99_SHARE, counted.sentRequests(), counted.overlappingRequests());
        return new RunAlignment(counts, summary, counted.bins(), counted.sendsPerBin(), counted.scatter());
    }
}
