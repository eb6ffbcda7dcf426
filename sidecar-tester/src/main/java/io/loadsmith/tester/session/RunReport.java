package io.loadsmith.tester.session;

import io.loadsmith.tester.report.ReportWriter;
import java.io.PrintWriter;
import java.nio.file.Path;

/** The report-after-run step of {@code run}, {@code demo} and {@code experiment}. */
public final class RunReport {

    private RunReport() {
    }

    /**
     * After a run that already wrote results.json: writes the report and says where both are. A report that
     * fails is a warning, not an error, so the measured results and the run's exit code stand.
     */
    public static void write(Path dir, PrintWriter console) {
        write(dir, console, true);
    }

    /** {@link #write(Path, PrintWriter)}, with the PNG/SVG charts only when {@code staticCharts}. */
    public static void write(Path dir, PrintWriter console, boolean staticCharts) {
        try {
            ReportWriter.write(dir, staticCharts);
            console.printf("%nwrote %s and %s%s%n", dir.resolve("results.json"), dir.resolve(ReportWriter.REPORT_FILE),
                    staticCharts ? "" : " (no PNG/SVG charts: --charts off; loadsmith report " + dir + " draws them)");
        } catch (RuntimeException e) {
            console.printf("%nwrote %s%nwarning: the report failed (%s); once fixed: loadsmith report %s%n",
                    dir.resolve("results.json"), e.getMessage(), dir);
        }
        console.flush();
    }
}
