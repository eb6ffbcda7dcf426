package io.loadsmith.tester.report;

import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.StallRow;
import io.loadsmith.tester.result.RunResult.StallTotals;
import java.util.List;

/** The injected stalls: a summary row per run, then per run a table of its stalls. */
final class StallsSection implements Section {
    private final PageContext page;

    StallsSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "stalls";
    }

    @Override
    public String navTitle() {
        return "Stalls";
    }

    @Override
    public boolean shown() {
        return !withStalls().isEmpty();
    }

    private List<RunResult> withStalls() {
        return page.runs().stream().filter(r -> !r.stalls().isEmpty() || r.stallSummary() != null).toList();
    }

    @Override
    public void appendTo(StringBuilder b) {
        List<RunResult> with = withStalls();
        b.append("<section id=\"stalls\"><h2>Stalls</h2>\n<p class=\"hint\">Per stall and run: <em>held</em> is what the agent's gate held; ")
                .append("<em>sent during</em> and <em>intended during</em> count sends inside the window by actual and intended time; ")
                .append("<em>overlapping</em> counts requests whose lifetime overlaps the window.</p>\n")
                .append("<div class=\"scroll\"><table class=\"num stall-summary\"><thead><tr><th>run</th><th>stalls met</th><th>sent during stalls</th>")
                .append("<th>overlapping share</th><th>p99 can see the stalls</th></tr></thead><tbody>\n");
        for (RunResult r : with) {
            summaryRow(b, r);
        }
        b.append("</tbody></table></div>\n");
        for (RunResult r : with) {
            if (!r.stalls().isEmpty()) {
                stallTable(b, r);
            }
        }
        b.append("</section>\n");
    }

    /** The run's stall summary; only the count of its stalls when it has no summary. */
    private void summaryRow(StringBuilder b, RunResult r) {
        StallTotals s = r.stallSummary();
        b.append("<tr><td class=\"run\">").append(page.swatch(r)).append(Html.esc(r.name())).append("</td>");
        if (s == null) {
            b.append("<td>").append(r.stalls().size()).append("</td><td>").append(Html.NONE).append("</td><td>").append(Html.NONE)
                    .append("</td><td>").append(Html.NONE).append("</td>");
        } else {
            b.append(Html.td(Html.count((long) s.stallsMet()))).append(Html.td(Html.count(s.sentDuringTotal())))
                    .append(Html.td(Html.percent(s.overlappingShare())))
                    .append(Html.td(s.p99CanSeeStalls() ? Html.badge("pass", "yes") : Html.badge("fail", "no")));
        }
        b.append("</tr>\n");
    }

    /** One row per stall, its start counted from the run's first stall. */
    private void stallTable(StringBuilder b, RunResult r) {
        long firstStart = r.stalls().stream().mapToLong(StallRow::startNs).min().orElse(0);
        b.append(page.details(r, Html.plural(r.stalls().size(), "stall")));
        b.append("<div class=\"scroll\"><table class=\"num stall-table\"><thead><tr><th>#</th><th>start (ms after first)</th><th>length ms</th>")
                .append("<th>held</th><th>sent during</th><th>intended during</th><th>in flight at start</th><th>overlapping</th>");
        boolean replayed = r.stalls().stream().anyMatch(s -> s.replayed() != null);
        b.append(replayed ? "<th>met</th><th>replays (offset in the profile, source: label)</th></tr></thead><tbody>\n"
                : "<th>met</th></tr></thead><tbody>\n");
        for (StallRow s : r.stalls()) {
            double start = (s.startNs() - firstStart) / 1e6;
            double length = (s.endNs() - s.startNs()) / 1e6;
            b.append(s.met() ? "<tr><td>" : "<tr class=\"not-met\"><td>")
                    .append(s.index()).append("</td>").append(Html.td(Html.ms(start)))
                    .append(Html.td(Html.ms(length))).append(Html.td(Html.count(s.held()))).append(Html.td(Html.count(s.sentDuring())))
                    .append(Html.td(Html.count(s.intendedDuring()))).append(Html.td(Html.count(s.inFlightAtStart())))
                    .append(Html.td(Html.count(s.overlapping()))).append(Html.td(Html.yesNo(s.met())));
            if (replayed) {
                b.append(Html.td(s.replayed() == null ? Html.NONE : Html.esc(s.replayed().text())));
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div></details>\n");
    }
}
