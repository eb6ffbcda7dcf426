package io.loadsmith.tester.report;

import io.loadsmith.tester.report.Results.AlignedSeries;
import io.loadsmith.tester.report.Results.Alignment;
import io.loadsmith.tester.report.Results.Experiment;
import io.loadsmith.tester.report.Results.Latency;
import io.loadsmith.tester.report.Results.Run;
import java.util.ArrayList;
import java.util.List;

/** The numbers behind the charts, computed once for the page and for the PNG/SVG files. */
final class ChartData {
    private ChartData() {}

    /**
     * Percentile spectrum on the "nines" axis: each point becomes [1/(1-p), ms, percent].
     * Percentiles are read as percent (0-100, as HdrHistogram's iterators give them) unless every
     * one of them is at most 1, then as fractions. The 100th percentile has no place on that axis
     * and is left out (it is the max, shown in the tables).
     */
    static List<double[]> nines(List<double[]> spectrum) {
        boolean fractions = spectrum.stream().allMatch(p -> p[0] <= 1.0);
        List<double[]> out = new ArrayList<>();
        for (double[] p : spectrum) {
            double fraction = fractions ? p[0] : p[0] / 100.0;
            if (fraction < 0 || fraction >= 1.0) {
                continue;
            }
            out.add(new double[] {1.0 / (1.0 - fraction), p[1], fraction * 100.0});
        }
        return out;
    }

    /** Label of a point on the nines axis: 10 gives "90%", 1000 gives "99.9%". */
    static String ninesLabel(double x) {
        double percent = 100.0 * (1.0 - 1.0 / x);
        int decimals = (int) Math.max(0, Math.round(Math.log10(x)) - 2);
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f%%", percent);
    }

    /** Bin centres from from_ms, one per value of sends_per_bin. */
    static double[] binCentres(Alignment a, AlignedSeries s) {
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

    /**
     * The arm a run belongs to: its {@code arm} field, else the longest arm name that the run's
     * name equals or starts with followed by a separator ("open r1 stall", "open-r1-on"), else -1 (not drawn).
     */
    static int armOf(Run run, List<String> arms) {
        if (run.arm() != null) {
            return arms.indexOf(run.arm());
        }
        int best = -1;
        for (int i = 0; i < arms.size(); i++) {
            String arm = arms.get(i);
            boolean prefix = run.name().startsWith(arm)
                    && (run.name().length() == arm.length() || !Character.isLetterOrDigit(run.name().charAt(arm.length())));
            if (prefix) {
                if (best < 0 || arm.length() > arms.get(best).length()) {
                    best = i;
                }
            }
        }
        return best;
    }

    /** Dots of p99 of one latency kind ("corrected" or "service") over every run of an experiment. */
    static List<Dot> dots(Experiment e, List<Run> runs, String kind) {
        List<Dot> out = new ArrayList<>();
        for (Run r : runs) {
            int arm = armOf(r, e.arms());
            Latency l = r.latency().get(kind);
            if (arm < 0 || l == null || l.p99() == null) {
                continue;
            }
            out.add(new Dot(arm, Boolean.TRUE.equals(r.stall()), r.round() == null ? 0 : r.round(), l.p99(), r.name()));
        }
        return out;
    }
}
