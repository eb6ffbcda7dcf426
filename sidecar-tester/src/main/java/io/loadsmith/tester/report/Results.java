package io.loadsmith.tester.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the report draws, read from one results.json (schema {@code loadsmith/results/v1}).
 * Every optional part is null or empty when absent; numbers are boxed so that "absent" stays
 * distinct from zero. Latencies are in milliseconds, clock values in nanoseconds.
 */
record Results(Path file, String title, String when, Double clockOffsetNs, Double clockUncertaintyNs,
               List<Run> runs, List<Slo> slos, Alignment alignment, Experiment experiment) {

    record Run(String name, String arm, Long round, Boolean stall, Long seed, String when,
               List<Map.Entry<String, String>> settings, Counts counts, Map<String, Latency> latency,
               AboveObjective aboveObjective, Latency sendLateness, Double cpuNsPerRequest, Double cpuMsTotal,
               Double achievedRate, List<String> warnings, List<Slo> slos, List<TimelinePoint> timeline,
               Map<String, List<double[]>> spectrum, List<Step> steps, List<StallRow> stalls,
               StallSummary stallSummary) {

        String model() {
            for (Map.Entry<String, String> e : settings) {
                if (e.getKey().equals("model")) {
                    return e.getValue();
                }
            }
            return null;
        }
    }

    /** Request counts; any of them may be absent. */
    record Counts(Long scheduled, Long sent, Long completed, Long errors, Long dropped, Long skipped) {}

    /** p50 … max and mean in ms; {@code intervalMs} only for the HdrHistogram estimate. */
    record Latency(Double p50, Double p90, Double p99, Double p999, Double max, Double mean, Double intervalMs) {}

    record AboveObjective(Double thresholdMs, Long service, Long corrected) {}

    record TimelinePoint(double tSeconds, Long count, Long errors, Double serviceP50, Double serviceP99,
                         Double correctedP50, Double correctedP99) {}

    record Step(String name, Counts counts, Latency service, Latency corrected) {}

    /** One stall as a run saw it; {@code met} is false for a stall that fell outside the run's counted window. */
    record StallRow(Long index, Long startNs, Long endNs, Long held, Long sentDuring, Long intendedDuring,
                    Long inFlightAtStart, Long overlapping, Boolean met) {}

    record StallSummary(Long stallsMet, Long sentDuringTotal, Double overlappingShare, Boolean p99CanSeeStalls) {}

    /** An SLO verdict; {@code run} is null for a top-level entry without one. */
    /** valueMs for a latency SLO, valuePercent for a share SLO (older files put a share in valueMs). */
    record Slo(String run, String expr, Double valueMs, Double valuePercent, Boolean pass) {}

    record Alignment(double stallMs, double binMs, double fromMs, double toMs, List<AlignedSeries> series,
                     List<AlignedScatter> scatter) {}

    record AlignedSeries(String run, Long stallsMet, List<Double> sendsPerBin) {}

    /** Points are [send offset from stall start ms, corrected latency ms]. */
    record AlignedScatter(String run, List<double[]> points) {}

    /** {@code stallVsNoStall}: each arm with stalls against itself without, when the experiment ran both. */
    record Experiment(Long rounds, List<String> arms, String metric, List<Pair> pairs, List<Pair> stallVsNoStall,
                      JsonNode sweep, JsonNode windows) {}

    record Pair(String a, String b, String metric, String stall, List<Double> differencesMs, Boolean toldApart) {}
}
