package io.loadsmith.tester.record;

/**
 * One second of a run's timeline, keyed by intended send time on the run's own timeline (second
 * {@code tS} holds the requests intended in [tS, tS + 1) s after the start). Latencies in milliseconds.
 */
public record SecondSummary(long tS, long count, long errors, double serviceP50Ms, double serviceP99Ms,
                            double correctedP50Ms, double correctedP99Ms) {
}
