package io.loadsmith.tester.align;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The alignment of one run's requests with the stalls it met.
 *
 * @param stalls      one entry per stall the agent recorded for the run, in start order
 * @param summary     the run's stalls in four numbers
 * @param bins        the geometry of {@code sendsPerBin}
 * @param sendsPerBin sends per bin of time from stall start, averaged over the stalls met whose bin lies in the counted span (zero if none)
 * @param scatter     corrected latency against send offset, at most the cap given, sorted by offset
 */
public record RunAlignment(List<StallCount> stalls, StallSummary summary, AlignedBins bins, double[] sendsPerBin,
                           List<ScatterPoint> scatter) {

    public RunAlignment {
        stalls = List.copyOf(stalls);
        scatter = List.copyOf(scatter);
        sendsPerBin = sendsPerBin.clone();
    }

    @Override
    public double[] sendsPerBin() {
        return sendsPerBin.clone();
    }

    /**
     * Several runs of one tester drawn as one line: stalls listed one after another, the summary summed
     * (share recomputed), sends per bin averaged weighted by each run's stalls met, and the scatter an even
     * share of each run's points, at most {@code scatterCap} in all.
     */
    public static RunAlignment merge(List<RunAlignment> runs, int scatterCap) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        AlignedBins bins = runs.get(0).bins();
        List<StallCount> stalls = new ArrayList<>();
        int met = 0;
        long sentDuring = 0;
        long sent = 0;
        long overlapping = 0;
        double[] weighted = new double[bins.binCount()];
        List<ScatterPoint> scatter = new ArrayList<>();
        int perRun = scatterCap / runs.size();
        for (RunAlignment run : runs) {
            if (!run.bins().equals(bins)) {
                throw new IllegalArgumentException("runs binned differently cannot be merged");
            }
            stalls.addAll(run.stalls());
            StallSummary s = run.summary();
            met += s.stallsMet();
            sentDuring += s.sentDuringTotal();
            sent += s.sentRequests();
            overlapping += s.overlappingRequests();
            for (int b = 0; b < weighted.length; b++) {
                weighted[b] += run.sendsPerBin[b] * s.stallsMet();
            }
            List<ScatterPoint> points = run.scatter();
            int step = Math.max(1, (points.size() + perRun - 1) / Math.max(1, perRun));
            for (int i = 0; i < points.size() && perRun > 0; i += step) {
                scatter.add(points.get(i));
            }
        }
        for (int b = 0; b < weighted.length; b++) {
            weighted[b] = met == 0 ? 0 : weighted[b] / met;
        }
        scatter.sort(Comparator.comparingLong(ScatterPoint::offsetNanos).thenComparingLong(ScatterPoint::correctedNanos));
        double share = sent == 0 ? 0 : overlapping / (double) sent;
        return new RunAlignment(stalls, new StallSummary(met, sentDuring, share, share > StallSummary.P99_SHARE, sent,
                overlapping), bins, weighted, scatter);
    }
}
