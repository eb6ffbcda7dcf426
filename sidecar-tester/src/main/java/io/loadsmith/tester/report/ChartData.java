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

    /** One dot of the experiment plot: arm index, stall on or off, round, value in ms. */
    record Dot(int arm, boolean stall, long round, double valueMs, String run) {
        /** x position: arm index, stall off left and on right, rounds spread a little. */
        double x() {
            return arm + (stall ? 0.18 : -0.18) + ((round % 5) - 2) * 0.03;
        }
    }

    /** Dots of p99 of one latency kind ("corrected" or "service") over every run of an experiment. */
    static List<Dot> dots(List<String> arms, List<RunResult> runs, String kind) {
        List<Dot> out = new ArrayList<>();
        for (RunResult r : runs) {
            int arm = Experiment.armOf(r, arms);
            RunResult.Latency l = latency(r).get(kind);
            if (arm >= 0 && l != null) {
                out.add(new Dot(arm, r.stall(), r.round(), l.p99(), r.name()));
            }
        }
        return out;
    }
}
