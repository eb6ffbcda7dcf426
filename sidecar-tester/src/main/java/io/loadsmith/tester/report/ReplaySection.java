package io.loadsmith.tester.report;

import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.Replayed;
import io.loadsmith.tester.result.RunResult.StallRow;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A replayed run's profile beside the windows the agent really made: per window the pause it replays (its
 * offset and duration in the profile), the window the plan asked for, the one the agent made, and how far
 * the agent's was from the plan's.
 */
final class ReplaySection implements Section {
    private final PageContext page;

    ReplaySection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "replay";
    }

    @Override
    public String navTitle() {
        return "Profile vs agent";
    }

    @Override
    public boolean shown() {
        return !replayedRuns().isEmpty();
    }

    private List<RunResult> replayedRuns() {
        return page.runs().stream().filter(r -> !replayedRows(r).isEmpty()).toList();
    }

    private static List<StallRow> replayedRows(RunResult r) {
        return r.stalls().stream().filter(s -> s.replayed() != null).toList();
    }

    @Override
    public void appendTo(StringBuilder b) {
        b.append("<section id=\"replay\"><h2>The profile beside the agent's windows</h2>\n<p class=\"hint\">Per replayed window: ")
                .append("the pause of the profile it replays (its offset and duration in the profile; a merged window lasts from its ")
                .append("first pause's start to the latest end), the window the plan asked for (from the counted start: the offset ")
                .append("less <code>from</code>, both divided by <code>speed</code>), the window the agent made (from the counted ")
                .append("start, on the tester's clock), and the agent's minus the plan's. All in ms.</p>\n");
        for (RunResult r : replayedRuns()) {
            table(b, r);
        }
        b.append("</section>\n");
    }

    /** The run's foldable table: one row per replayed window, its line giving the largest differences. */
    private void table(StringBuilder b, RunResult r) {
        List<StallRow> rows = replayedRows(r);
        b.append(page.details(r, Html.plural(rows.size(), "window") + worstDifferences(r, rows)));
        b.append("<div class=\"scroll\"><table class=\"num replay-table\"><thead><tr><th>#</th><th>pause (source: label)</th>")
                .append("<th>offset in the profile</th><th>duration in the profile</th><th>planned start</th><th>planned length</th>")
                .append("<th>agent's start</th><th>agent's length</th><th>start \u2212 planned</th><th>length \u2212 planned</th>")
                .append("</tr></thead><tbody>\n");
        for (StallRow s : rows) {
            Replayed p = s.replayed();
            b.append(s.met() ? "<tr><td>" : "<tr class=\"not-met\"><td>").append(s.index()).append("</td><td class=\"kind\">")
                    .append(Html.esc(p.what())).append("</td>").append(Html.td(Html.number(p.offsetMs(), 3)))
                    .append(Html.td(Html.number(p.durationMs(), 3))).append(Html.td(Html.number(p.plannedOffsetMs(), 3)))
                    .append(Html.td(Html.number(p.plannedDurationMs(), 3))).append(Html.td(Html.number(startMs(r, s), 3)))
                    .append(Html.td(Html.number(lengthMs(s), 3))).append(Html.td(signed(startOffMs(r, s))))
                    .append(Html.td(signed(lengthOffMs(s)))).append("</tr>\n");
        }
        b.append("</tbody></table></div></details>\n");
    }

    /** {@code , start off the plan by up to 0.412 ms, length by up to 0.105 ms}; "" when the file has no planned windows. */
    private static String worstDifferences(RunResult r, List<StallRow> rows) {
        double start = rows.stream().map(s -> startOffMs(r, s)).filter(Objects::nonNull).mapToDouble(Math::abs).max().orElse(-1);
        double length = rows.stream().map(ReplaySection::lengthOffMs).filter(Objects::nonNull).mapToDouble(Math::abs).max().orElse(-1);
        if (start < 0 || length < 0) {
            return "";
        }
        return ", start off the plan by up to " + Html.number(start, 3) + " ms, length by up to " + Html.number(length, 3) + " ms";
    }

    /** Where the agent's window began, ms from the counted start (the run's {@code start_ns}), tester clock. */
    private static double startMs(RunResult r, StallRow s) {
        return (s.startNs() - r.startNs()) / 1e6;
    }

    private static double lengthMs(StallRow s) {
        return (s.endNs() - s.startNs()) / 1e6;
    }

    /** The agent's start less the plan's; null in a file written before the plan's windows were. */
    private static Double startOffMs(RunResult r, StallRow s) {
        Double planned = s.replayed().plannedOffsetMs();
        return planned == null ? null : startMs(r, s) - planned;
    }

    /** The agent's length less the plan's; null in a file written before the plan's windows were. */
    private static Double lengthOffMs(StallRow s) {
        Double planned = s.replayed().plannedDurationMs();
        return planned == null ? null : lengthMs(s) - planned;
    }

    /** {@code +0.412}, {@code -0.105}: a difference with its sign, to the microsecond. */
    private static String signed(Double ms) {
        // rounded first, so that a nanosecond's float noise prints +0.000, not -0.000
        return ms == null ? Html.NONE : String.format(Locale.ROOT, "%+,.3f", Math.round(ms * 1e3) / 1e3);
    }
}
