package io.loadsmith.tester.session;

import io.loadsmith.tester.report.ReportWriter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/** The report-after-run step of {@code run}, {@code demo} and {@code experiment}. */
public final class RunReport {

    private RunReport() {
    }

    /**
     * After a run that already wrote results.json: writes the report and says where both are. A report that
     * fails is a warning, not an error, so the measured results and the run's exit code stand.
     *
     * @throws ReportOutOfMemoryException when the JVM's heap ran out while drawing the report: the results
     *     stay whole, and its message says what was written, what was not, and how to finish the report
     */
    public static void write(Path dir, PrintWriter console) {
        write(dir, console, true);
    }

    /** {@link #write(Path, PrintWriter)}, with the PNG/SVG charts only when {@code staticCharts}. */
    public static void write(Path dir, PrintWriter console, boolean staticCharts) {
        write(dir, console, staticCharts, d -> ReportWriter.write(d, staticCharts));
    }

    static void write(Path dir, PrintWriter console, boolean staticCharts, Consumer<Path> report) {
        try {
            report.accept(dir);
            console.printf("%nwrote %s and %s%s%n", dir.resolve("results.json"), dir.resolve(ReportWriter.REPORT_FILE),
                    staticCharts ? "" : " (no PNG/SVG charts: --charts off; loadsmith report " + dir + " draws them)");
        } catch (RuntimeException e) {
            console.printf("%nwrote %s%nwarning: the report failed (%s); once fixed: loadsmith report %s%n",
                    dir.resolve("results.json"), e.getMessage(), dir);
        } catch (OutOfMemoryError e) {
            // what the report held is unreachable once its frames are gone: there is room for the message again
            console.printf("%nwrote %s%n", dir.resolve("results.json"));
            console.flush();
            throw ReportOutOfMemoryException.of(dir, e);
        }
        console.flush();
    }
}
