package io.loadsmith.tester.align;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * One run's requests lined up with the pauses the service's observer saw, with the same counts as the
 * stalls' ({@link WindowAlignment} defines them): per pause, and in a summary.
 *
 * <pre>{@code
 * PauseAlignment pauses = PauseAlignment.alignLog(runDir.resolve("requests.bin"), windows, durationNanos, null);
 * pauses.summary().sentDuringTotal();
 * }</pre>
 *
 * @param pauses      one entry per pause, in start order
 * @param summary     the run's pauses in a few numbers
 * @param bins        the geometry of {@code sendsPerBin} (null: the counts alone, no plot)
 * @param sendsPerBin sends per bin of time from a pause's start, averaged over the pauses met
 */
public record PauseAlignment(List<WindowAlignment.WindowCount<AlignedPause>> pauses, PauseCounts summary,
                             AlignedBins bins, double[] sendsPerBin) {

    public PauseAlignment {
        pauses = List.copyOf(pauses);
        sendsPerBin = sendsPerBin.clone();
    }

    @Override
    public double[] sendsPerBin() {
        return sendsPerBin.clone();
    }

    /**
     * A run's pauses in a few numbers; every count is of the pauses met (inside the counted span) except
     * {@code pauses}.
     *
     * @param pauses              the pauses listed for the run (those overlapping the counted run and its grace)
     * @param pausesMet           those that lie wholly inside the counted span
     * @param sentDuringTotal     requests sent inside the pauses met, summed over them (a request inside two
     *                            overlapping pauses counts twice)
     * @param overlappingRequests requests whose lifetime overlapped at least one pause met
     * @param sentRequests        requests of the counted run that were sent
     * @param pausedNanos         the time covered by the pauses met (their union: overlapping pauses count once)
     */
    public record PauseCounts(int pauses, int pausesMet, long sentDuringTotal, long overlappingRequests,
                          long sentRequests, long pausedNanos) {

        /** Share (0 to 1) of the sent requests whose lifetime overlapped a pause met. */
        public double overlappingShare() {
            return sentRequests == 0 ? 0.0 : overlappingRequests / (double) sentRequests;
        }
    }

    /**
     * The bins of the pause-aligned plot: those of {@link AlignedBins#forStall} for the longest of
     * {@code pauses}, or null when there is none (or none longer than 0).
     */
    public static AlignedBins binsFor(List<? extends AlignedWindow> pauses) {
        long longest = pauses.stream().mapToLong(AlignedWindow::durationNanos).max().orElse(0);
        return longest <= 0 ? null : AlignedBins.forStall(longest);
    }

    /**
     * Aligns a run's per-request log ({@code requests.bin}) with its pauses: its counted span starts at the
     * log's run start and lasts {@code durationNanos}.
     *
     * @param bins the bins of the pause-aligned plot; null: the counts alone (no plot)
     */
    public static PauseAlignment alignLog(Path requestLog, List<AlignedPause> pauses, long durationNanos,
                                          AlignedBins bins) throws IOException {
        return alignLog(requestLog, pauses, durationNanos, bins, servedBy -> StallWindow.NO_REPLICA);
    }

    /**
     * {@link #alignLog(Path, List, long, AlignedBins)} of a run on several agents: each request counts only
     * for the pauses of the replica that served it ({@code replicaOf}, as {@link WindowAlignment#alignLog}).
     */
    public static PauseAlignment alignLog(Path requestLog, List<AlignedPause> pauses, long durationNanos,
                                          AlignedBins bins, IntUnaryOperator replicaOf) throws IOException {
        AlignedBins counting = bins == null ? AlignedBins.forStall(AlignedBins.MIN_BIN_NANOS) : bins;
        return of(WindowAlignment.alignLog(requestLog, pauses, durationNanos, counting, 0, 0, replicaOf), bins);
    }

    private static PauseAlignment of(WindowAlignment.Counted<AlignedPause> counted, AlignedBins bins) {
        List<AlignedPause> met = new ArrayList<>();
        for (WindowAlignment.WindowCount<AlignedPause> c : counted.windows()) {
            if (c.met()) {
                met.add(c.window());
            }
        }
        PauseCounts summary = new PauseCounts(counted.windows().size(), counted.windowsMet(), counted.sentDuringTotal(),
                counted.overlappingRequests(), counted.sentRequests(), unionNanos(met));
        return new PauseAlignment(counted.windows(), summary, bins,
                bins == null ? new double[0] : counted.sendsPerBin());
    }

    /** The time covered by {@code windows}, each moment once. */
    static long unionNanos(List<? extends AlignedWindow> windows) {
        List<? extends AlignedWindow> sorted = windows.stream()
                .sorted(Comparator.comparingLong(AlignedWindow::startNanos)).toList();
        long total = 0;
        long coveredTo = Long.MIN_VALUE;
        for (AlignedWindow w : sorted) {
            long from = Math.max(w.startNanos(), coveredTo);
            if (w.endNanos() > from) {
                total += w.endNanos() - from;
            }
            coveredTo = Math.max(coveredTo, w.endNanos());
        }
        return total;
    }
}
