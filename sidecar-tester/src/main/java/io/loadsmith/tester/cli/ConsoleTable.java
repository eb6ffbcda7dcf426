package io.loadsmith.tester.cli;

import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.scenario.Durations;
import io.loadsmith.tester.scenario.Slo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The console summary of a run: per tester and per step, a service row and a corrected row (p50, p90,
 * p99, p99.9, max, mean in ms; count above the objective), then errors, dropped, achieved rate and the
 * tester's CPU per request, then the SLO verdicts.
 */
final class ConsoleTable {

    private ConsoleTable() {
    }

    static void print(PrintWriter out, RunResult run, List<Slo.Verdict> verdicts) {
        String above = run.aboveObjective() == null ? "above"
                : String.format(Locale.ROOT, ">%sms", trim(run.aboveObjective().thresholdMs()));
        String header = String.format(Locale.ROOT, "%-28s %-10s %9s %9s %9s %9s %9s %9s %9s %9s",
                "tester / step", "latency", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "mean ms", "count", above);
        out.println(header);
        out.println("-".repeat(header.length()));
        RunResult.LatencyViews total = run.latencyMs();
        long serviceAbove = run.aboveObjective() == null ? 0 : run.aboveObjective().service();
        long correctedAbove = run.aboveObjective() == null ? 0 : run.aboveObjective().corrected();
        rows(out, run.name(), total, serviceAbove, correctedAbove, run.aboveObjective() != null);
        if (run.steps().size() > 1) {
            for (RunResult.StepResult step : run.steps()) {
                rows(out, "  " + step.name(), step.latencyMs(), -1, -1, false);
            }
        }
        RunResult.Counts c = run.counts();
        out.printf(Locale.ROOT, "%nscheduled %d  sent %d  completed %d  errors %d  dropped %d  skipped %d%n",
                c.scheduled(), c.sent(), c.completed(), c.errors(), c.dropped(), c.skipped());
        out.printf(Locale.ROOT, "achieved %.1f/s  tester cost %s  send lateness p50 %s ms, p99 %s ms, max %s ms%n",
                run.achievedRate(),
                costText(run.cost()),
                run.sendLatenessMs() == null ? "-" : fmt(run.sendLatenessMs().p50()),
                run.sendLatenessMs() == null ? "-" : fmt(run.sendLatenessMs().p99()),
                run.sendLatenessMs() == null ? "-" : fmt(run.sendLatenessMs().max()));
        if (run.tester() != null && run.tester().precisionMs() != null) {
            out.printf(Locale.ROOT, "precision %s (a send at most this late by design; load.precision)%n",
                    Durations.format(Math.round(run.tester().precisionMs() * 1e6)));
        }
        if (run.estimate() != null && total.estimated() != null) {
            out.printf(Locale.ROOT, "estimated (not measured) p99 %s ms: %s%n", fmt(total.estimated().p99()),
                    run.estimate().note());
        }
        for (String warning : run.warnings()) {
            out.println("warning: " + warning);
        }
        if (!verdicts.isEmpty()) {
            out.println();
            for (Slo.Verdict v : verdicts) {
                String value = v.valueMillis() != null ? fmt(v.valueMillis()) + " ms"
                        : v.valuePercent() != null ? String.format(Locale.ROOT, "%.3f%%", v.valuePercent()) : "no data";
                out.printf(Locale.ROOT, "SLO %-28s %-12s %s%n", v.expr(), value, v.pass() ? "PASS" : "FAIL");
            }
        }
        out.flush();
    }

    /** "59.5 us CPU/request, 12.3 ms CPU/s": per request, and per second of run (what runs whatever the rate). */
    static String costText(RunResult.Cost cost) {
        if (cost == null || cost.cpuNsPerRequest() < 0) {
            return "-";
        }
        String perRequest = String.format(Locale.ROOT, "%.1f us CPU/request", cost.cpuNsPerRequest() / 1000);
        Double perSecond = cost.cpuMsPerSecond();
        String cpu = perSecond == null || perSecond < 0 ? perRequest
                : perRequest + String.format(Locale.ROOT, ", %.1f ms CPU/s", perSecond);
        return cpu + memoryText(cost);
    }

    /** ", peak RSS 88.1 MB (heap 9.5 of 24.0 MB, non-heap 31.2 MB)", or nothing when the memory is unknown. */
    static String memoryText(RunResult.Cost cost) {
        if (cost.rssMaxMb() == null && cost.heapUsedMb() == null) {
            return "";
        }
        String rss = cost.rssMaxMb() == null ? "" : String.format(Locale.ROOT, ", peak RSS %.1f MB", cost.rssMaxMb());
        return cost.heapUsedMb() == null ? rss : rss + String.format(Locale.ROOT, " (heap %.1f of %.1f MB, non-heap %.1f MB)",
                cost.heapUsedMb(), cost.heapCommittedMb(), cost.nonHeapCommittedMb());
    }

    private static void rows(PrintWriter out, String name, RunResult.LatencyViews views, long serviceAbove,
                             long correctedAbove, boolean showAbove) {
        row(out, name, "service", views.service(), showAbove ? Long.toString(serviceAbove) : "");
        row(out, "", "corrected", views.corrected(), showAbove ? Long.toString(correctedAbove) : "");
    }

    private static void row(PrintWriter out, String name, String kind, RunResult.Latency l, String above) {
        if (l == null) {
            out.printf(Locale.ROOT, "%-28s %-10s %9s%n", name, kind, "-");
            return;
        }
        out.printf(Locale.ROOT, "%-28s %-10s %9s %9s %9s %9s %9s %9s %9d %9s%n", shorten(name), kind, fmt(l.p50()),
                fmt(l.p90()), fmt(l.p99()), fmt(l.p999()), fmt(l.max()), fmt(l.mean()), l.count(), above);
    }

    private static String shorten(String name) {
        return name.length() <= 28 ? name : name.substring(0, 27) + "…";
    }

    static String fmt(double ms) {
        if (ms >= 100) {
            return String.format(Locale.ROOT, "%.0f", ms);
        }
        if (ms >= 10) {
            return String.format(Locale.ROOT, "%.1f", ms);
        }
        return String.format(Locale.ROOT, "%.3f", ms);
    }

    private static String trim(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
