package io.loadsmith.tester.result;

import java.util.List;

/**
 * The stall-aligned plot of {@code results.json} (docs/alignment.md): time from a stall's start cut into
 * bins, one line of sends per bin and one scatter of corrected latency per run (or per tester, when runs of
 * one tester are merged). Milliseconds rounded to the microsecond.
 *
 * @param stallMs the stall length the bins are drawn for
 * @param binMs   the width of a bin
 * @param fromMs  where the first bin starts, relative to the stall's start (negative)
 * @param toMs    where the last bin ends
 */
public record Alignment(double stallMs, double binMs, double fromMs, double toMs, List<Series> series,
                        List<Scatter> scatter) {

    public Alignment {
        series = series == null ? List.of() : List.copyOf(series);
        scatter = scatter == null ? List.of() : List.copyOf(scatter);
    }

    /** One line: sends per bin, averaged over the stalls met (4 decimals). */
    public record Series(String run, int stallsMet, List<Double> sendsPerBin) {

        public Series {
            sendsPerBin = sendsPerBin == null ? List.of() : List.copyOf(sendsPerBin);
        }
    }

    /** One run's points: x the send's offset from the stall's start, y its corrected latency, both ms. */
    public record Scatter(String run, List<RunResult.Point> points) {

        public Scatter {
            points = points == null ? List.of() : List.copyOf(points);
        }
    }
}
