package io.loadsmith.tester.verify;

/**
 * One figure of a results.json and what the raw files say it should be.
 *
 * @param run        the run's name
 * @param figure     where the figure is: its JSON path in results.json, e.g. {@code runs[0].counts.sent}
 * @param claimed    the value results.json holds, as written there
 * @param recomputed the value recomputed from the raw files
 * @param agrees     whether the two agree (percentiles: equivalent values at HdrHistogram's precision)
 */
public record Row(String run, String figure, String claimed, String recomputed, boolean agrees) {
}
