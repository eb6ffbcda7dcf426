package io.loadsmith.tester.report;

import io.loadsmith.tester.result.AtomicFiles;
import io.loadsmith.tester.result.ResultsException;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * Turns a results directory into a report a person can read.
 *
 * <p>{@link #write(Path)} reads {@code runDir/results.json} and writes into the same directory:
 * <ul>
 *   <li>{@code report.html}: one self-contained page (styles, data and the ECharts library inlined;
 *       it opens offline, from a file, with no network);</li>
 *   <li>{@code aligned.png/.svg} (when the results have {@code alignment}), {@code spectrum.png/.svg},
 *       {@code timeline.png/.svg} and {@code experiment.png/.svg} (each when its data is there).</li>
 * </ul>
 * <pre>{@code
 * Path report = ReportWriter.write(Path.of("results/score-open-20261129T1700"));
 * }</pre>
 * Not thread-safe for the same directory; different directories may be written concurrently.
 */
public final class ReportWriter {
    /** The page's file name inside the run directory. */
    public static final String REPORT_FILE = "report.html";
    /** The results file read from the run directory. */
    public static final String RESULTS_FILE = io.loadsmith.tester.result.ResultsWriter.FILE_NAME;

    private static final String ECHARTS_POM = "META-INF/maven/org.webjars.npm/echarts/pom.properties";

    private ReportWriter() {}

    /**
     * Warms up what the PNG/SVG charts need (Java2D's fonts), best effort: call it early in a run that may
     * write its report from a JVM shutdown hook's wait (Ctrl-C), where Java2D could no longer start.
     */
    public static void prepare() {
        try {
            StaticCharts.prepare();
        } catch (RuntimeException | LinkageError e) {
            // no fonts: write() reports it
        }
    }

    /**
     * Writes report.html and the chart files for the results in runDir.
     *
     * @return the path of report.html
     * @throws ReportException when results.json is missing, is not JSON or has a field of the wrong
     *     shape; the message names the file (and line or field)
     * @throws UncheckedIOException when the directory cannot be written
     */
    public static Path write(Path runDir) {
        return write(runDir, true);
    }

    /**
     * {@link #write(Path)}, with the PNG/SVG copies of the charts only when {@code staticCharts} (the page draws
     * its own either way): without them Java2D is never loaded, about 13 MB less at the end of a run.
     */
    public static Path write(Path runDir, boolean staticCharts) {
        ResultsFile results;
        try {
            results = ResultsReader.read(runDir.resolve(RESULTS_FILE));
        } catch (ResultsException e) {
            throw new ReportException(e.getMessage(), e);
        }
        List<String> chartFiles = List.of();
        try {
            if (staticCharts) {
                chartFiles = StaticCharts.write(results, runDir);
            }
        } catch (IllegalStateException | java.awt.AWTError | LinkageError e) {
            // the page draws its own charts; the PNG/SVG copies are a convenience (e.g. no fonts on the box)
            System.err.println("loadsmith: the PNG/SVG charts were not written (" + e + "); report.html still is");
            chartFiles = List.of();
        }
        String html = HtmlPage.render(results, chartFiles, resource("report.css"), chartLibrary(), resource("report.js"));
        Path report = runDir.resolve(REPORT_FILE);
        try {
            AtomicFiles.writeString(report, html);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + report, e);
        }
        return report;
    }

    private static String resource(String name) {
        try (InputStream in = ReportWriter.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name + " next to " + ReportWriter.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** ECharts' "common" build (line, scatter, log axes, mark areas, legends, tooltips) from its WebJar. */
    static String chartLibrary() {
        ClassLoader loader = ReportWriter.class.getClassLoader();
        try (InputStream pom = loader.getResourceAsStream(ECHARTS_POM)) {
            if (pom == null) {
                throw new IllegalStateException("the ECharts WebJar (org.webjars.npm:echarts) is not on the class path");
            }
            Properties p = new Properties();
            p.load(pom);
            String path = "META-INF/resources/webjars/echarts/" + p.getProperty("version") + "/dist/echarts.common.min.js";
            try (InputStream js = loader.getResourceAsStream(path)) {
                if (js == null) {
                    throw new IllegalStateException("the ECharts WebJar has no " + path);
                }
                return new String(js.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
