package io.loadsmith.tester.cli;

import io.loadsmith.tester.verify.Row;
import io.loadsmith.tester.verify.Verification;
import io.loadsmith.tester.verify.Verifier;
import io.loadsmith.tester.verify.VerifyException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code loadsmith verify DIR}: recomputes every figure of a results folder from its raw files and prints,
 * per run, each figure with its claimed and recomputed value. Exit 0 when all agree, 1 when one does not,
 * 2 when a file is missing or damaged.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check a results folder's figures against its raw files.",
            "The counts, percentiles and per-stall and per-pause figures are recomputed from requests.bin, "
                + "latency.hlog, agent-stalls.json and agent-pauses.json, with code that shares nothing with what "
                + "wrote them, and the CLI prints what agrees and what does not.",
            "Exit codes: 0 every figure agrees, 1 one disagrees, 2 a file is missing or damaged."},
        footerHeading = "%nExample:%n", footer = "  loadsmith verify results/demo-20261129-174700")
final class VerifyCommand implements Callable<Integer> {

    /** Exit code when a figure disagrees with the raw files. */
    static final int DISAGREES = 1;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "DIR", description = "A results folder (holds results.json)")
    Path dir;

    @Override
    public Integer call() {
        Verification verification;
        try {
            verification = Verifier.verify(dir);
        } catch (VerifyException e) {
            throw new BadInputException(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        print(out, verification);
        out.flush();
        return verification.agrees() ? ExitCodes.OK : DISAGREES;
    }

    /** The table, run by run, then the notes and the verdict. */
    static void print(PrintWriter out, Verification verification) {
        List<Row> rows = verification.rows();
        int width = Math.max("figure".length(), rows.stream().mapToInt(r -> r.figure().length()).max().orElse(0));
        String format = "%-" + width + "s  %16s  %16s  %s%n";
        String run = null;
        for (Row row : rows) {
            if (!row.run().equals(run)) {
                run = row.run();
                out.printf(Locale.ROOT, "%nrun %s%n", run);
                out.printf(Locale.ROOT, format, "figure", "claimed", "recomputed", "");
            }
            out.printf(Locale.ROOT, format, row.figure(), row.claimed(), row.recomputed(),
                    row.agrees() ? "agrees" : "DISAGREES");
        }
        out.println();
        for (String note : verification.notes()) {
            out.println("note: " + note);
        }
        List<Row> wrong = verification.disagreements();
        if (wrong.isEmpty()) {
            out.printf(Locale.ROOT, "all %d figures agree%n", rows.size());
        } else {
            out.printf(Locale.ROOT, "%d of %d figures disagree:%n", wrong.size(), rows.size());
            for (Row row : wrong) {
                out.printf(Locale.ROOT, "  %s %s: claimed %s, recomputed %s%n", row.run(), row.figure(), row.claimed(),
                        row.recomputed());
            }
        }
    }
}
