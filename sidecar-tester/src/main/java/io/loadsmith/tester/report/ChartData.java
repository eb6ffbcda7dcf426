package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The numbers behind the charts, computed once for the page and for the PNG/SVG files. */
final class ChartData {
    private ChartData() {}

    /**
     * Percentile spectrum on the "nines" axis: each point becomes [1/(1-p), ms, percent].
     * Percentiles are read as percent (0-100, as HdrHistogram's iterators give them) unless every
     * one of them is at most 1, then as fractions. The 100th percentile has no place on that axis
     * and is left out (it is the max, shown in the tables).
     */
    static List<double[]> nines(List<RunResult.Point> spectrum) {
        boolean fractions = spectrum.stream().allMatch(p -> p.x() <= 1.0);
        List<double[]> out = new ArrayList<>();
        for (RunResult.Point p : spectrum) {
            double fraction = fractions ? p.x() : p.x() / 100.0;
            if (fraction < 0 || fraction >= 1.0) {
                continue;
            }
            out.add(new double[] {1.0 / (1.0 - fraction), p.y(), fraction * 100.0});
        }
        return out;
    }

    /** A run's latencies by kind: service, corrected and, when there, estimated. */
    static Map<String, RunResult.Latency> latency(RunResult run) {
        Map<String, RunResult.Latency> kinds = new LinkedHashMap<>();
        kinds.put("service", run.latencyMs().service());
        kinds.put("corrected", run.latencyMs().corrected());
        if (run.latencyMs().estimated() != null) {
            kinds.put("estimated", run.latencyMs().estimated());
        }
        return kinds;
    }

    /** A run's percentile spectrum by kind (corrected, service), the kinds without points left out. */
    static Map<String, List<RunResult.Point>> spectrum(RunResult run) {
        Map<String, List<RunResult.Point>> kinds = new LinkedHashMap<>();
        if (run.spectrum() != null && !run.spectrum().service().isEmpty()) {
            kinds.put("service", run.spectrum().service());
        }
        if (run.spectrum() != null && !run.spectrum().corrected().isEmpty()) {
            kinds.put("corrected", run.spectrum().corrected());
        }
        return kinds;
    }

    /** Label of a point on the nines axis: 10 gives "90%", 1000 gives "99.9%". */
    static String ninesLabel(double x) {
        double percent = 100.0 * (1.0 - 1.0 / x);
        int decimals = (int) Math.max(0, Math.round(Math.log10(x)) - 2);
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f%%", percent);
    }

    /** Bin centres from from_ms, one per value of sends_per_bin. */
    static double[] binCentres(Alignment a, Alignment.Series s) {
        double[] x = new double[s.sendsPerBin().size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = a.fromMs() + (i + 0.5) * a.binMs();
        }
        return x;
    }

    /** A run's injected stalls on its timeline: [from, to] in seconds from the run's start. */
    static List<double[]> stallSeconds(RunResult run) {
        List<double[]> out = new ArrayList<>();
        for (RunResult.StallRow s : run.stalls()) {
            out.add(new double[] {seconds(run, s.startNs()), seconds(run, s.endNs())});
        }
        return out;
    }

    /**
     * A run's service pauses on its timeline: [from, to, label] with from and to in seconds from the run's
     * start, and the label its source and what the agent called it ({@code safepoint: GenCollectFull ...}).
     */
    static List<Object[]> pauseSeconds(RunResult run) {
        List<Object[]> out = new ArrayList<>();
        for (RunResult.PauseRow p : run.servicePauses()) {
            out.add(new Object[] {seconds(run, p.startNs()), seconds(run, p.endNs()), p.source() + ": " + p.label()});
        }
        return out;
    }

    private static double seconds(RunResult run, long nanos) {
        return Math.round((nanos - run.startNs()) / 1e3) / 1e6;
    }

    /** One dot of the experiment plot: arm index, stall on or off, round, value in ms, and whether it is an outlier. */
    record Dot(int arm, boolean stall, long round, double valueMs, String run, boolean outlier) {
        /** x position: arm index, stall off left and on right, rounds spread a little. */
        double x() {
            return arm + (stall ? 0.18 : -0.18) + ((round % 5) - 2) * 0.03;
        }
    }

    /** The metric the experiment plots: its {@code metric} without the latency ({@code p99} when there is none). */
    static String plottedMetric(Experiment e) {
        String metric = e.metric() == null ? "p99" : e.metric().replace(":service", "").replace(" corrected", "").trim();
        return List.of("p50", "p99", "max", "mean").contains(metric) ? metric : "p99";
    }

    /**
     * Dots of the experiment's metric ({@link #plottedMetric}) of one latency kind ("corrected" or "service")
     * over every run of an experiment, each flagged when the experiment lists it as an outlier on that latency.
     */
    static List<Dot> dots(Experiment e, List<RunResult> runs, String kind) {
        String metric = plottedMetric(e);
        List<Dot> out = new ArrayList<>();
        for (RunResult r : runs) {
            int arm = Experiment.armOf(r, e.arms());
            RunResult.Latency l = latency(r).get(kind);
            if (arm >= 0 && l != null) {
                double value = switch (metric) {
                    case "p50" -> l.p50();
                    case "max" -> l.max();
                    case "mean" -> l.mean();
                    default -> l.p99();
                };
                out.add(new Dot(arm, r.stall(), r.round(), value, r.name(), e.outlier(r.name(), kind) != null));
            }
        }
        return out;
    }

    /** Whether dots need a log axis: their positive values span more than a decade (a zero cannot be drawn on one). */
    static boolean logScale(List<Dot> dots) {
        double min = dots.stream().mapToDouble(Dot::valueMs).min().orElse(0);
        double max = dots.stream().mapToDouble(Dot::valueMs).max().orElse(0);
        return min > 0 && max / min > 10;
    }
}
