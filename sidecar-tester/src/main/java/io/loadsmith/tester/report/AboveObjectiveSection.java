package io.loadsmith.tester.report;

import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.AboveObjective;
import java.util.List;
import java.util.Locale;

/** Per run, the requests above the objective by each latency, with bars on one scale for all runs. */
final class AboveObjectiveSection implements Section {
    private final PageContext page;

    AboveObjectiveSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "above";
    }

    @Override
    public String navTitle() {
        return "Above objective";
    }

    @Override
    public boolean shown() {
        return !withObjective().isEmpty();
    }

    private List<RunResult> withObjective() {
        return page.runs().stream().filter(r -> r.aboveObjective() != null).toList();
    }

    @Override
    public void appendTo(StringBuilder b) {
        List<RunResult> with = withObjective();
        b.append("<section id=\"above\"><h2>Requests above the objective</h2>\n<div class=\"scroll\"><table class=\"num above\"><thead><tr><th>run</th>")
                .append("<th>objective</th><th>sent</th><th>service above</th><th>corrected above</th><th></th></tr></thead><tbody>\n");
        long most = 1;
        for (RunResult r : with) {
            most = Math.max(most, Math.max(r.aboveObjective().service(), r.aboveObjective().corrected()));
        }
        for (RunResult r : with) {
            AboveObjective a = r.aboveObjective();
            long completed = r.counts().sent(); // requests that ended: sent = completed + errors
            b.append("<tr><td class=\"run\">").append(page.swatch(r)).append(Html.esc(r.name())).append("</td><td>")
                    .append(Html.msShort(a.thresholdMs())).append(" ms</td><td>")
                    .append(Html.count(completed)).append("</td><td>").append(withShare(a.service(), completed))
                    .append("</td><td>").append(withShare(a.corrected(), completed)).append("</td><td class=\"bars\">")
                    .append(bar("service", a.service(), most)).append(bar("corrected", a.corrected(), most)).append("</td></tr>\n");
        }
        b.append("</tbody></table></div></section>\n");
    }

    private static String withShare(long n, long of) {
        return Html.count(n) + (of > 0 ? " <small>(" + Html.percent((double) n / of) + ")</small>" : "");
    }

    /** A bar as wide as {@code v} is of {@code most}. */
    private static String bar(String kind, long v, long most) {
        double width = 100.0 * v / most;
        return "<div class=\"bar " + kind + "\" style=\"width:" + String.format(Locale.ROOT, "%.1f", width) + "%\" title=\""
                + kind + " " + v + "\"></div>";
    }
}
