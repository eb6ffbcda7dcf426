package io.loadsmith.tester.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.TimelinePoint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page's embedded JSON block ({@code report-data}), which report.js draws the charts from: per run its
 * timeline, stalls, pauses and spectrum; the stall- and pause-aligned sends; an experiment's dots.
 */
final class ChartJson {
    private ChartJson() {}

    /** The block's JSON, safe inside a {@code <script>} element. */
    static String of(ResultsFile results) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("runs", runs(results.runs()));
        if (results.alignment() != null) {
            data.put("aligned", aligned(results.alignment(), results.runs()));
        }
        if (results.pauseAlignment() != null) {
            data.put("pauseAligned", pauseAligned(results.pauseAlignment()));
        }
        Experiment e = results.experiment();
        if (e != null && !e.arms().isEmpty()) {
            data.put("experiment", experiment(e, results.runs()));
        }
        try {
            // "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" can end the block early
            return new ObjectMapper().writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static List<Map<String, Object>> runs(List<RunResult> all) {
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            RunResult r = all.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("index", i);
            if (!r.timeline().isEmpty()) {
                m.put("timeline", timeline(r));
            }
            if (!r.stalls().isEmpty()) {
                m.put("stalls", ChartData.stallSeconds(r));
            }
            if (r.servicePauses() != null && !r.servicePauses().isEmpty()) {
                m.put("pauses", ChartData.pauseSeconds(r));
            }
            Map<String, Object> spectrum = new LinkedHashMap<>();
            ChartData.spectrum(r).forEach((kind, points) -> spectrum.put(kind, ChartData.nines(points)));
            if (!spectrum.isEmpty()) {
                m.put("spectrum", spectrum);
            }
            runs.add(m);
        }
        return runs;
    }

    /** Per second: [t, service p50, service p99, corrected p50, corrected p99, count, errors]. */
    private static List<Object[]> timeline(RunResult r) {
        List<Object[]> t = new ArrayList<>();
        for (TimelinePoint p : r.timeline()) {
            t.add(new Object[] {p.tS(), p.service() == null ? null : p.service().p50(),
                p.service() == null ? null : p.service().p99(), p.corrected() == null ? null : p.corrected().p50(),
                p.corrected() == null ? null : p.corrected().p99(), p.count(), p.errors()});
        }
        return t;
    }

    /** The aligned sends and scatter, and the replayed windows (when a run replayed a profile) to mark on them. */
    private static Map<String, Object> aligned(Alignment a, List<RunResult> runs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stallMs", a.stallMs());
        m.put("binMs", a.binMs());
        m.put("fromMs", a.fromMs());
        m.put("toMs", a.toMs());
        m.put("series", lines(a, "stallsMet"));
        List<Map<String, Object>> scatter = new ArrayList<>();
        for (Alignment.Scatter s : a.scatter()) {
            scatter.add(ordered("run", String.valueOf(s.run()), "points", s.points()));
        }
        m.put("scatter", scatter);
        List<ChartData.ReplayedWindow> replayed = ChartData.replayedWindows(runs);
        List<String> labels = ChartData.windowLabels(replayed, a.toMs() - a.fromMs());
        List<Map<String, Object>> windows = new ArrayList<>();
        for (int i = 0; i < replayed.size(); i++) {
            windows.add(ordered("name", replayed.get(i).name(), "endMs", replayed.get(i).endMs(), "label", labels.get(i)));
        }
        if (!windows.isEmpty()) {
            m.put("windows", windows);
        }
        return m;
    }

    private static Map<String, Object> pauseAligned(Alignment p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fromMs", p.fromMs());
        m.put("toMs", p.toMs());
        m.put("binMs", p.binMs());
        m.put("series", lines(p, "pausesMet"));
        return m;
    }

    /** The lines of an aligned plot: per series its run, the windows it met (under {@code metKey}) and [x, y] points. */
    private static List<Map<String, Object>> lines(Alignment a, String metKey) {
        List<Map<String, Object>> series = new ArrayList<>();
        for (Alignment.Series s : a.series()) {
            double[] x = ChartData.binCentres(a, s);
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < x.length; i++) {
                points.add(new double[] {x[i], s.sendsPerBin().get(i)});
            }
            series.add(ordered("run", String.valueOf(s.run()), metKey, s.stallsMet(), "points", points));
        }
        return series;
    }

    /** The arms, the plotted metric, and per latency kind its dots and whether its axis is logarithmic. */
    private static Map<String, Object> experiment(Experiment e, List<RunResult> runs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("arms", e.arms());
        m.put("metric", ChartData.plottedMetric(e));
        for (String kind : List.of("corrected", "service")) {
            List<ChartData.Dot> found = ChartData.dots(e, runs, kind);
            List<Map<String, Object>> dots = new ArrayList<>();
            for (ChartData.Dot d : found) {
                dots.add(ordered("x", d.x(), "y", d.valueMs(), "stall", d.stall(), "round", d.round(), "run", d.run(),
                        "outlier", d.outlier()));
            }
            m.put(kind, dots);
            m.put(kind + "Log", ChartData.logScale(found));
        }
        return m;
    }

    /**
     * A map of {@code key, value, key, value, ...} in that order: the same results give the same page, byte
     * for byte ({@code Map.of}'s order changes from one JVM to the next).
     */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }
}
