package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.RunResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
        return String.format(Locale.ROOT, "%." + decimals + "f%%", percent);
    }

    /** Bin centres from from_ms, one per value of sends_per_bin. */
    static double[] binCentres(Alignment a, Alignment.Series s) {
        double[] x = new double[s.sendsPerBin().size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = a.fromMs() + (i + 0.5) * a.binMs();
        }
        return x;
    }

    /**
     * A run's injected stalls on its timeline: [from, to] in seconds from the run's start, and for a replayed
     * window a third element, its name ({@link #windowName}).
     */
    static List<Object[]> stallSeconds(RunResult run) {
        List<Object[]> out = new ArrayList<>();
        for (RunResult.StallRow s : run.stalls()) {
            double from = seconds(run, s.startNs());
            double to = seconds(run, s.endNs());
            out.add(s.replayed() == null ? new Object[] {from, to} : new Object[] {from, to, windowName(s)});
        }
        return out;
    }

    /** {@code stall 3: gc: G1: Pause Young ... at 12.345 s of the profile}: a replayed window, named by its pause. */
    static String windowName(RunResult.StallRow s) {
        return String.format(Locale.ROOT, "stall %d: %s at %.3f s of the profile", s.index(), s.replayed().what(),
                s.replayed().offsetMs() / 1000);
    }

    /**
     * A replayed window on the stall-aligned plot, where every stall starts at 0: the agent's stall index, its
     * name ({@link #windowName}) and where it ends, its length in ms.
     */
    record ReplayedWindow(int index, String name, double endMs) {
    }

    /** Most replayed windows whose lines are labelled on the aligned plot: more would be a blur of labels. */
    static final int LABELLED_WINDOWS = 12;

    /**
     * The replayed windows of every run, each once (the runs of an arm replay the same plan), in the runs' order:
     * the length is that of the first run's row; empty when no run replayed a profile.
     */
    static List<ReplayedWindow> replayedWindows(List<RunResult> runs) {
        Map<String, ReplayedWindow> windows = new LinkedHashMap<>();
        for (RunResult r : runs) {
            for (RunResult.StallRow s : r.stalls()) {
                if (s.replayed() != null) {
                    String name = windowName(s);
                    double endMs = Math.round((s.endNs() - s.startNs()) / 1e3) / 1e3;
                    windows.putIfAbsent(name, new ReplayedWindow(s.index(), name, endMs));
                }
            }
        }
        return List.copyOf(windows.values());
    }

    /**
     * The label of each window's line, in the order of {@code windows}: windows that end within a 200th of the
     * plot's width ({@code widthMs}) of each other share one label on the first of them ({@code stall 0, 3}),
     * so that labels do not print over each other; the others get "". All "" with more than
     * {@link #LABELLED_WINDOWS} windows.
     */
    static List<String> windowLabels(List<ReplayedWindow> windows, double widthMs) {
        String[] labels = new String[windows.size()];
        Arrays.fill(labels, "");
        if (windows.size() > LABELLED_WINDOWS) {
            return List.of(labels);
        }
        for (int i = 0; i < windows.size(); i++) {
            int first = i;
            for (int k = 0; k < i; k++) {
                boolean leads = !labels[k].isEmpty(); // the first window of its group
                if (leads && Math.abs(windows.get(k).endMs() - windows.get(i).endMs()) <= widthMs / 200) {
                    first = k;
                    break;
                }
            }
            labels[first] = (first == i ? "stall " : labels[first] + ", ") + windows.get(i).index();
        }
        return List.of(labels);
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
