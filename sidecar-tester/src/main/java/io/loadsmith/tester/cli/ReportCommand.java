package io.loadsmith.tester.cli;

import io.loadsmith.tester.report.ReportException;
import io.loadsmith.tester.report.ReportWriter;
import io.loadsmith.tester.session.ReportOutOfMemoryException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code loadsmith report DIR}: rebuilds report.html and the plots of a results folder. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Rebuild report.html and the plots of a results folder.",
            "They are drawn from its results.json; the plots are written as SVG and PNG."},
        footerHeading = "%nExample:%n", footer = "  loadsmith report results/score-open-20261129-171500")
final class ReportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "A results folder (holds results.json)")
    Path dir;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(dir.resolve("results.json"))) {
            throw new BadInputException(dir + ": no results.json here (give the folder a run wrote)");
        }
        write(dir);
        spec.commandLine().getOut().println("wrote " + dir.resolve("report.html"));
        return ExitCodes.OK;
    }

    /**
     * Writes report.html and the plots of {@code dir}; an unreadable results.json is bad input (exit 2), a heap
     * too small for the report exit 4 ({@link ReportOutOfMemoryException}).
     */
    static void write(Path dir) {
        try {
            ReportWriter.write(dir);
        } catch (ReportException e) {
            throw new BadInputException(e.getMessage());
        } catch (OutOfMemoryError e) {
            throw ReportOutOfMemoryException.of(dir, e);
        }
    }
}
