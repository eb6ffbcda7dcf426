package io.loadsmith.tester.align;

/**
 * The stalls of one run in four numbers.
 *
 * @param stallsMet           stalls whose window lies inside the counted span
 * @param sentDuringTotal     requests sent inside those windows, in total
 * @param overlappingShare    share (0 to 1) of the run's sent requests whose lifetime overlapped one of them
 * @param p99CanSeeStalls     whether that share is above {@link #P99_SHARE}: at or below it, at most 1% of the
 *                            requests met a stall, so the 99th percentile can be reached without any of them
 * @param sentRequests        requests of the counted run that were sent (the share's denominator)
 * @param overlappingRequests requests that overlapped a stall met (the share's numerator)
 */
public record StallSummary(int stallsMet, long sentDuringTotal, double overlappingShare, boolean p99CanSeeStalls,
                           long sentRequests, long overlappingRequests) {

    /** A 99th percentile can only show stalls that more than this share of requests met. */
    public static final double P99_SHARE = 0.01;
}
