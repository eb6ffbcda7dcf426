package io.loadsmith.tester.session;

import io.loadsmith.tester.align.StallCount;
import io.loadsmith.tester.result.RunResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The console table of requests sent inside each stall window, one column per run (the agent's held count
 * in brackets), a warning line for every run whose planned stalls did not all happen, and a line for every
 * run that met service pauses. {@code demo} and {@code run} print it after their latency tables.
 */
public final class PerStallTable {

    private PerStallTable() {
    }

    /** Prints the table of {@code entries}; every entry must have an alignment (a run with stalls). */
    public static void print(PrintWriter out, List<AlignedResults.Entry> entries) {
        out.println();
        out.println("requests sent inside each stall window, per tester (agent's held count in brackets):");
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-6s", "stall"));
        int most = 0;
        StalledRun.StalledResult replay = null;
        for (AlignedResults.Entry e : entries) {
            header.append(String.format(Locale.ROOT, " %14s", e.line()));
            most = Math.max(most, e.outcome().alignment().stalls().size());
            if (replay == null && e.outcome().replayed() != null) {
                replay = e.outcome();
            }
        }
        if (replay != null) {
            header.append("  replays (offset in the profile, source: label)");
        }
        out.println(header);
        for (int i = 0; i < most; i++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-6d", i));
            for (AlignedResults.Entry e : entries) {
                List<StallCount> stalls = e.outcome().alignment().stalls();
                line.append(i < stalls.size()
                        ? String.format(Locale.ROOT, " %14s", stalls.get(i).sentDuring() + " (" + stalls.get(i).held() + ")")
                        : String.format(Locale.ROOT, " %14s", "-"));
            }
            if (replay != null) {
                line.append("  ").append(replayedText(replay, i));
            }
            out.println(line);
        }
        for (AlignedResults.Entry e : entries) {
            if (!e.outcome().missing().isEmpty()) {
                out.println("warning: " + e.line() + ": planned stalls " + e.outcome().missing() + " did not happen");
            }
        }
        for (AlignedResults.Entry e : entries) {
            String pauses = ServicePauses.consoleLine(e.outcome().result());
            if (pauses != null) {
                out.println(e.line() + ": " + pauses);
            }
        }
    }

    /** {@code 182.05 ms gc: G1: Pause Young (Normal) (G1 Evacuation Pause)}: what row i's window replays. */
    static String replayedText(StalledRun.StalledResult replay, int i) {
        List<StallCount> rows = replay.alignment().stalls();
        RunResult.Replayed r = i < rows.size() ? AlignedResults.replayedOf(replay, rows.get(i).index()) : null;
        return r == null ? "-" : r.text();
    }
}
