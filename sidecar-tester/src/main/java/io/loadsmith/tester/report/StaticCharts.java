package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.SymbolAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.HorizontalAlignment;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.chart.ui.VerticalAlignment;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * The main charts as PNG and SVG files, drawn server-side with JFreeChart (PNG) and JFreeSVG (SVG),
 * for pasting into a ticket: aligned, spectrum, timeline and experiment, each only when its data is there.
 */
final class StaticCharts {
    static {
        // before any AWT class is touched: charts are drawn off screen, also where a DISPLAY is set
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        // PNGs of a few hundred kB are encoded in memory: ImageIO's file cache would register a JVM shutdown
        // hook on first use, which is refused while the JVM shuts down (a run stopped with Ctrl-C)
        javax.imageio.ImageIO.setUseCache(false);
    }

    static final Color[] PALETTE = {new Color(0x4363d8), new Color(0xe6194b), new Color(0x2f9e44), new Color(0xf58231),
        new Color(0x911eb4), new Color(0x1098ad), new Color(0xd6336c), new Color(0x9a6324), new Color(0x469990), new Color(0x808000)};
    private static final Color GRID = new Color(0xdee2e6);
    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    private static final int WIDTH = 1000;
    /** Most scatter points drawn per run in the files (the page draws them all): keeps the SVG small. */
    static final int MAX_SCATTER_POINTS = 2500;
    /** Most replayed windows named beneath the aligned picture: the page's table has them all. */
    static final int NAMED_WINDOWS = 6;
    /** The height each line of notes adds beneath a chart, px. */
    private static final int NOTE_HEIGHT = 16;
    private static final Font NOTE = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private StaticCharts() {}

    /**
     * Draws a line of text off screen, so Java2D opens its font files now: its font manager registers a
     * JVM shutdown hook the first time it does, which is refused once the JVM is shutting down (a run
     * stopped with Ctrl-C writes its charts from a shutdown hook's wait).
     */
    static void prepare() {
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(8, 8, java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.awt.Graphics2D g = image.createGraphics();
        try {
            g.setFont(TITLE);
            g.drawString("0 ms", 0, 8);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            g.drawString("0 ms", 0, 8);
        } finally {
            g.dispose();
        }
    }

    /** Writes the charts that have data into dir; returns the file names written. */
    static List<String> write(ResultsFile results, Path dir) {
        List<String> written = new ArrayList<>();
        if (results.alignment() != null) {
            int notes = windowNotes(ChartData.replayedWindows(results.runs())).size();
            save(aligned(results), dir, "aligned", WIDTH, (hasScatter(results.alignment()) ? 760 : 440) + NOTE_HEIGHT * notes,
                    written);
        }
        if (results.runs().stream().anyMatch(r -> !ChartData.spectrum(r).isEmpty())) {
            save(spectrum(results), dir, "spectrum", WIDTH, 520, written);
        }
        if (results.runs().stream().anyMatch(r -> !r.timeline().isEmpty())) {
            save(timeline(results), dir, "timeline", WIDTH, 520, written);
        }
        if (results.experiment() != null && !results.experiment().arms().isEmpty()) {
            save(experiment(results), dir, "experiment", WIDTH, 680, written);
        }
        return written;
    }

    private static boolean hasScatter(Alignment a) {
        return a.scatter().stream().anyMatch(s -> !s.points().isEmpty());
    }

    private static void save(JFreeChart chart, Path dir, String base, int width, int height, List<String> written) {
        try {
            AtomicFiles.write(dir.resolve(base + ".png"), out -> ChartUtils.writeChartAsPNG(out, chart, width, height));
            written.add(base + ".png");
            SVGGraphics2D g = new SVGGraphics2D(width, height);
            g.setGeomDoubleConverter(StaticCharts::oneDecimal);
            chart.draw(g, new Rectangle(0, 0, width, height));
            AtomicFiles.writeString(dir.resolve(base + ".svg"), g.getSVGDocument());
            written.add(base + ".svg");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(base) + ".png/.svg", e);
        }
    }

    /** Coordinates to 0.1 px: the SVG stays a third of its size and looks the same. */
    private static String oneDecimal(double v) {
        return java.math.BigDecimal.valueOf(Math.round(v * 10), 1).stripTrailingZeros().toPlainString();
    }

    private static Color colorOf(ResultsFile results, String run, int fallback) {
        int i = -1;
        for (int k = 0; k < results.runs().size(); k++) {
            if (results.runs().get(k).name().equals(run)) {
                i = k;
                break;
            }
        }
        return PALETTE[(i < 0 ? fallback : i) % PALETTE.length];
    }

    private static XYPlot plot(XYSeriesCollection data, ValueAxis x, String yLabel, XYLineAndShapeRenderer renderer) {
        NumberAxis y = new NumberAxis(yLabel);
        y.setAutoRangeIncludesZero(true);
        XYPlot p = new XYPlot(data, x, y, renderer);
        p.setBackgroundPaint(Color.WHITE);
        p.setDomainGridlinePaint(GRID);
        p.setRangeGridlinePaint(GRID);
        p.setOutlineVisible(false);
        return p;
    }

    private static JFreeChart chart(String title, XYPlot plot) {
        return style(new JFreeChart(title, TITLE, plot, true));
    }

    private static JFreeChart style(JFreeChart c) {
        c.setBackgroundPaint(Color.WHITE);
        c.setAntiAlias(true);
        c.setPadding(new RectangleInsets(6, 8, 6, 28));
        return c;
    }

    private static IntervalMarker stallBand(double stallMs, boolean label) {
        IntervalMarker m = new IntervalMarker(0, stallMs, new Color(250, 82, 82, 40));
        if (label) {
            m.setLabel("stall");
            m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            m.setLabelPaint(new Color(0xc92a2a));
            m.setLabelAnchor(RectangleAnchor.TOP);
            m.setLabelTextAnchor(TextAnchor.TOP_CENTER);
            m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
        }
        return m;
    }

    static JFreeChart aligned(ResultsFile results) {
        Alignment a = results.alignment();
        NumberAxis x = new NumberAxis("time from stall start (ms)");
        x.setRange(a.fromMs(), a.toMs());
        XYSeriesCollection lines = new XYSeriesCollection();
        XYStepRenderer step = new XYStepRenderer();
        step.setStepPoint(0.5);
        int i = 0;
        for (Alignment.Series s : a.series()) {
            XYSeries xy = new XYSeries(s.run() + " (" + s.stallsMet() + " stalls)", false, true);
            double[] cx = ChartData.binCentres(a, s);
            for (int k = 0; k < cx.length; k++) {
                xy.add(cx[k], s.sendsPerBin().get(k));
            }
            lines.addSeries(xy);
            step.setSeriesPaint(i, colorOf(results, s.run(), i));
            step.setSeriesStroke(i, new BasicStroke(2f));
            i++;
        }
        XYPlot top = plot(lines, x, "sends per " + Html.msShort(a.binMs()) + " ms bin", step);
        top.addDomainMarker(stallBand(a.stallMs(), true), Layer.BACKGROUND);
        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(x);
        combined.setGap(14);
        combined.add(top, 1);
        if (hasScatter(a)) {
            XYSeriesCollection dots = new XYSeriesCollection();
            XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(false, true);
            int j = 0;
            int stride = 1;
            for (Alignment.Scatter s : a.scatter()) {
                stride = Math.max(stride, (s.points().size() + MAX_SCATTER_POINTS - 1) / MAX_SCATTER_POINTS);
            }
            for (Alignment.Scatter s : a.scatter()) {
                XYSeries xy = new XYSeries(s.run() + " requests", false, true);
                for (int k = 0; k < s.points().size(); k += stride) {
                    xy.add(s.points().get(k).x(), s.points().get(k).y());
                }
                dots.addSeries(xy);
                Color c = colorOf(results, s.run(), j);
                r.setSeriesPaint(j, new Color(c.getRed(), c.getGreen(), c.getBlue(), 150));
                r.setSeriesShape(j, new Rectangle2D.Double(-1.5, -1.5, 3, 3));
                r.setSeriesVisibleInLegend(j, false);
                j++;
            }
            XYPlot bottom = plot(dots, x, stride == 1 ? "corrected latency (ms)" : "corrected latency (ms), 1 in " + stride + " requests", r);
            bottom.addDomainMarker(stallBand(a.stallMs(), false), Layer.BACKGROUND);
            combined.add(bottom, 1);
        }
        combined.setBackgroundPaint(Color.WHITE);
        JFreeChart c = new JFreeChart("Requests sent around a stall (stall " + Html.msShort(a.stallMs()) + " ms, averaged over stalls)",
                TITLE, combined, true);
        List<ChartData.ReplayedWindow> windows = ChartData.replayedWindows(results.runs());
        markReplayed(top, windows, ChartData.windowLabels(windows, a.toMs() - a.fromMs()));
        nameReplayed(c, windows);
        return style(c);
    }

    /** A replayed plan's windows differ in length: a dashed line where each ends, labelled when there are few. */
    private static void markReplayed(XYPlot top, List<ChartData.ReplayedWindow> windows, List<String> labels) {
        Color red = new Color(0xc92a2a);
        for (int i = 0; i < windows.size(); i++) {
            ValueMarker m = new ValueMarker(windows.get(i).endMs(), red,
                    new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {4f, 3f}, 0f));
            if (!labels.get(i).isEmpty()) {
                m.setLabel(labels.get(i));
                m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
                m.setLabelPaint(red);
                m.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
                m.setLabelTextAnchor(TextAnchor.TOP_LEFT);
                m.setLabelBackgroundColor(new Color(255, 255, 255, 0));
            }
            top.addDomainMarker(m, Layer.FOREGROUND);
        }
    }

    /** The notes naming the replayed windows beneath the chart, under its legend, first note on top. */
    private static void nameReplayed(JFreeChart c, List<ChartData.ReplayedWindow> windows) {
        List<String> notes = windowNotes(windows);
        if (notes.isEmpty()) {
            return;
        }
        // subtitles at the bottom stack upwards in the order added: the last note first, the legend last
        LegendTitle legend = c.getLegend();
        c.removeLegend();
        for (int i = notes.size() - 1; i >= 0; i--) {
            c.addSubtitle(new TextTitle(notes.get(i), NOTE, Color.DARK_GRAY, RectangleEdge.BOTTOM, HorizontalAlignment.LEFT,
                    VerticalAlignment.CENTER, new RectangleInsets(1, 8, 1, 8)));
        }
        c.addSubtitle(legend);
    }

    /** The lines beneath the aligned picture naming its replayed windows: the first few, then how many more. */
    static List<String> windowNotes(List<ChartData.ReplayedWindow> windows) {
        List<String> notes = new ArrayList<>();
        if (windows.isEmpty()) {
            return notes;
        }
        notes.add("Dashed lines: where each replayed window ends (its length), the pause it replays:");
        for (ChartData.ReplayedWindow w : windows.subList(0, Math.min(NAMED_WINDOWS, windows.size()))) {
            notes.add(w.name() + ", " + Html.ms(w.endMs()) + " ms");
        }
        if (windows.size() > NAMED_WINDOWS) {
            notes.add("and " + Html.plural(windows.size() - NAMED_WINDOWS, "more window") + " (report.html lists them all)");
        }
        return notes;
    }

    static JFreeChart spectrum(ResultsFile results) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        int i = 0;
        double maxX = 10;
        for (int k = 0; k < results.runs().size(); k++) {
            RunResult run = results.runs().get(k);
            for (String kind : List.of("corrected", "service")) {
                List<RunResult.Point> points = ChartData.spectrum(run).get(kind);
                if (points == null) {
                    continue;
                }
                XYSeries xy = new XYSeries(run.name() + " " + kind, false, true);
                for (double[] p : ChartData.nines(points)) {
                    xy.add(Math.log10(p[0]), p[1]);
                    maxX = Math.max(maxX, p[0]);
                }
                data.addSeries(xy);
                r.setSeriesPaint(i, PALETTE[k % PALETTE.length]);
                r.setSeriesStroke(i, kind.equals("service")
                        ? new BasicStroke(1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f)
                        : new BasicStroke(2.2f));
                i++;
            }
        }
        // x is log10(1/(1-p)), drawn on a plain axis so that the SVG keeps its labels as text
        NumberAxis x = new NumberAxis("percentile (log scale of 1/(1\u2212p))");
        x.setRange(0, Math.ceil(Math.log10(maxX) - 1e-9));
        x.setTickUnit(new NumberTickUnit(1)); // one tick per nine: 0%, 90%, 99%, 99.9%, ...
        x.setNumberFormatOverride(new NinesFormat());
        return chart("Percentile spectrum (solid: corrected, dashed: service)", plot(data, x, "latency (ms)", r));
    }

    static JFreeChart timeline(ResultsFile results) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        // with many runs, two lines each would be unreadable: then corrected p99 only
        boolean both = results.runs().stream().filter(run -> !run.timeline().isEmpty()).count() <= 6;
        int i = 0;
        for (int k = 0; k < results.runs().size(); k++) {
            RunResult run = results.runs().get(k);
            if (run.timeline().isEmpty()) {
                continue;
            }
            XYSeries corrected = new XYSeries(run.name() + " corrected p99", false, true);
            XYSeries service = new XYSeries(run.name() + " service p99", false, true);
            for (RunResult.TimelinePoint p : run.timeline()) {
                corrected.add(p.tS(), p.corrected() == null ? null : p.corrected().p99());
                service.add(p.tS(), p.service() == null ? null : p.service().p99());
            }
            for (XYSeries s : both ? List.of(corrected, service) : List.of(corrected)) {
                data.addSeries(s);
                r.setSeriesPaint(i, PALETTE[k % PALETTE.length]);
                r.setSeriesStroke(i, s == service
                        ? new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f)
                        : new BasicStroke(2f));
                i++;
            }
        }
        NumberAxis x = new NumberAxis("second of the run");
        x.setAutoRangeIncludesZero(false);
        return chart(both ? "p99 per second (solid: corrected, dashed: service)" : "corrected p99 per second",
                plot(data, x, "latency (ms)", r));
    }

    static JFreeChart experiment(ResultsFile results) {
        Experiment e = results.experiment();
        List<String> arms = e.arms();
        String metric = ChartData.plottedMetric(e);
        SymbolAxis x = new SymbolAxis("arm", arms.toArray(new String[0]));
        x.setRange(-0.5, arms.size() - 0.5);
        x.setGridBandsVisible(false);
        x.setTickLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(x);
        combined.setGap(16);
        for (String kind : List.of("corrected", "service")) {
            XYSeries off = new XYSeries("stall off", false, true);
            XYSeries on = new XYSeries("stall on", false, true);
            XYSeries outliers = new XYSeries("outlier", false, true);
            List<ChartData.Dot> dots = ChartData.dots(e, results.runs(), kind);
            for (ChartData.Dot d : dots) {
                (d.stall() ? on : off).add(d.x(), d.valueMs());
                if (d.outlier()) {
                    outliers.add(d.x(), d.valueMs());
                }
            }
            XYSeriesCollection data = new XYSeriesCollection();
            data.addSeries(off);
            data.addSeries(on);
            data.addSeries(outliers);
            XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(false, true);
            r.setSeriesPaint(0, new Color(0x495057));
            r.setSeriesShape(0, new Ellipse2D.Double(-5, -5, 10, 10));
            r.setSeriesShapesFilled(0, false);
            r.setUseOutlinePaint(false);
            r.setSeriesStroke(0, new BasicStroke(2f));
            r.setSeriesPaint(1, new Color(0xe03131));
            r.setSeriesShape(1, new Ellipse2D.Double(-5, -5, 10, 10));
            r.setSeriesPaint(2, Color.BLACK);
            r.setSeriesShape(2, new Rectangle2D.Double(-9, -9, 18, 18));
            r.setSeriesShapesFilled(2, false);
            r.setSeriesStroke(2, new BasicStroke(2.5f));
            if (kind.equals("service")) {
                for (int i = 0; i < 3; i++) {
                    r.setSeriesVisibleInLegend(i, false);
                }
            }
            r.setSeriesVisibleInLegend(2, kind.equals("corrected") && !outliers.isEmpty());
            boolean log = ChartData.logScale(dots);
            XYPlot plot = plot(data, x, metric + " " + kind + " (ms" + (log ? ", log scale" : "") + ")", r);
            if (log) {
                LogAxis y = new LogAxis(plot.getRangeAxis().getLabel());
                y.setSmallestValue(dots.stream().mapToDouble(ChartData.Dot::valueMs).min().orElse(1) / 2);
                y.setTickUnit(new NumberTickUnit(1.0), false, true);
                y.setNumberFormatOverride(new java.text.DecimalFormat("0.###"));
                y.setMinorTickMarksVisible(false);
                plot.setRangeAxis(y);
            }
            combined.add(plot, 1);
        }
        JFreeChart c = style(new JFreeChart("Experiment: " + metric + " of every round of every arm", TITLE, combined, true));
        c.addSubtitle(new TextTitle("hollow: stall off, filled: stall on, square: an outlier among its arm's rounds",
                new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        return c;
    }

    /** Tick labels of the nines axis, given log10(1/(1-p)): 1 reads "90%", 3 reads "99.9%". */
    private static final class NinesFormat extends NumberFormat {
        private static final long serialVersionUID = 1L;

        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(number < 0 ? "" : ChartData.ninesLabel(Math.pow(10, number)));
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return format((double) number, to, pos);
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            return null;
        }
    }
}
