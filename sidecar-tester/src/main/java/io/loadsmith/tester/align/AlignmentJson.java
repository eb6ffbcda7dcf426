package io.loadsmith.tester.align;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Writes alignments in the shapes of results.json (docs/alignment.md): per run {@code stalls[]} and
 * {@code stall_summary}, and the top-level {@code alignment} with one series and one scatter per run.
 * Milliseconds are rounded to the microsecond.
 */
public final class AlignmentJson {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private AlignmentJson() {
    }

    /** One run's alignment, under its name. */
    public record NamedRun(String run, RunAlignment alignment) {
    }

    /**
     * Puts {@code stalls[]} and {@code stall_summary} into a run's object. Missing stalls, if any, go into
     * {@code stall_summary.missing} and a warning into the run's {@code warnings[]}.
     */
    public static void writeRun(ObjectNode run, RunAlignment alignment, List<Integer> missing) {
        ArrayNode stalls = run.putArray("stalls");
        for (StallCount count : alignment.stalls()) {
            ObjectNode stall = stalls.addObject();
            stall.put("index", count.index());
            stall.put("start_ns", count.startNanos());
            stall.put("end_ns", count.endNanos());
            stall.put("held", count.held());
            stall.put("sent_during", count.sentDuring());
            stall.put("intended_during", count.intendedDuring());
            stall.put("in_flight_at_start", count.inFlightAtStart());
            stall.put("overlapping", count.overlapping());
            stall.put("met", count.met());
        }
        StallSummary summary = alignment.summary();
        ObjectNode node = run.putObject("stall_summary");
        node.put("stalls_met", summary.stallsMet());
        node.put("sent_during_total", summary.sentDuringTotal());
        node.put("overlapping_share", round(summary.overlappingShare(), 6));
        node.put("p99_can_see_stalls", summary.p99CanSeeStalls());
        node.put("sent", summary.sentRequests());
        node.put("overlapping", summary.overlappingRequests());
        ArrayNode missingNode = node.putArray("missing");
        missing.forEach(missingNode::add);
        String warning = MissingStalls.warning(missing);
        if (warning != null) {
            ArrayNode warnings = run.has("warnings") && run.get("warnings").isArray()
                    ? (ArrayNode) run.get("warnings") : run.putArray("warnings");
            warnings.add(warning);
        }
    }

    /**
     * The top-level {@code alignment} object of several runs drawn on the same bins.
     *
     * @throws IllegalArgumentException if the runs were binned differently
     */
    public static ObjectNode alignment(List<NamedRun> runs) {
        ObjectNode node = JSON.objectNode();
        AlignedBins bins = runs.isEmpty() ? null : runs.get(0).alignment().bins();
        if (bins != null) {
            node.put("stall_ms", ms(bins.stallNanos()));
            node.put("bin_ms", ms(bins.binNanos()));
            node.put("from_ms", ms(bins.fromNanos()));
            node.put("to_ms", ms(bins.toNanos()));
        }
        ArrayNode series = node.putArray("series");
        ArrayNode scatter = node.putArray("scatter");
        for (NamedRun run : runs) {
            if (!run.alignment().bins().equals(bins)) {
                throw new IllegalArgumentException("run " + run.run() + " was binned as " + run.alignment().bins()
                        + ", not as " + bins);
            }
            ObjectNode line = series.addObject();
            line.put("run", run.run());
            line.put("stalls_met", run.alignment().summary().stallsMet());
            ArrayNode perBin = line.putArray("sends_per_bin");
            for (double value : run.alignment().sendsPerBin()) {
                perBin.add(round(value, 4));
            }
            ObjectNode points = scatter.addObject();
            points.put("run", run.run());
            ArrayNode list = points.putArray("points");
            for (ScatterPoint point : run.alignment().scatter()) {
                ArrayNode pair = list.addArray();
                pair.add(ms(point.offsetNanos()));
                pair.add(ms(point.correctedNanos()));
            }
        }
        return node;
    }

    /** Nanoseconds as milliseconds rounded to the microsecond. */
    static double ms(long nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static double round(double value, int decimals) {
        double scale = Math.pow(10, decimals);
        return Math.round(value * scale) / scale;
    }
}
