package io.loadsmith.tester.align;

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
}
