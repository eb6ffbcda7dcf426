package io.loadsmith.tester.cli;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith report DIR}: rebuilds report.html and the plots of a results folder. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Rebuild report.html and the plots (SVG, PNG) of a results folder from its results.json.",
        footerHeading = "%nExample:%n", footer = "  loadsmith report results/score-open-20261129-171500")
final class ReportCommand implements Callable<Integer> {

    /** The report engineer's entry point, called by name so this module builds before it is merged. */
    static final String REPORT_WRITER = "io.loadsmith.tester.report.ReportWriter";

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "A results folder (holds results.json)")
    Path dir;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(dir.resolve("results.json"))) {
            throw new BadInputException(dir + ": no results.json here (give the folder a run wrote)");
        }
        if (!write(dir)) {
            throw new BadInputException("this build has no report writer yet (" + REPORT_WRITER + ")");
        }
        spec.commandLine().getOut().println("wrote " + dir.resolve("report.html"));
        return ExitCodes.OK;
    }

    /**
     * Calls {@code ReportWriter.write(dir)} when that class is on the class path.
     * TODO(lead): once the report branch is merged, call io.loadsmith.tester.report.ReportWriter.write(dir)
     * directly instead of by reflection.
     *
     * @return false when there is no report writer in this build
     */
    static boolean write(Path dir) {
        Class<?> writer;
        try {
            writer = Class.forName(REPORT_WRITER);
        } catch (ClassNotFoundException e) {
            return false;
        }
        try {
            writer.getMethod("write", Path.class).invoke(null, dir);
            return true;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new BadInputException("the report of " + dir + " cannot be written: " + cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("unexpected report writer API: " + e, e);
        }
    }
}
