package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.RunResult;

/** Sends around the start of the service pauses met, and each run's pauses in a few numbers. */
final class PauseAlignedSection implements Section {
    private final PageContext page;

    PauseAlignedSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "pause-aligned";
    }

    @Override
    public String navTitle() {
        return "Pause-aligned sends";
    }

    @Override
    public boolean shown() {
        return page.results().pauseAlignment() != null;
    }

    @Override
    public void appendTo(StringBuilder b) {
        Alignment a = page.results().pauseAlignment();
        b.append("<section id=\"pause-aligned\"><h2>Requests sent around a service pause</h2>\n<p class=\"hint\">")
                .append("Pauses the agent saw in the service (safepoints and collections, and stops of the whole process), ")
                .append("not injected: x: time from the start of each pause (ms); y: requests sent per ")
                .append(Html.msShort(a.binMs())).append(" ms bin, averaged over the pauses each tester met. Pauses differ in ")
                .append("length (the longest met: ").append(Html.msShort(a.stallMs())).append(" ms); the line marks their start.</p>\n")
                .append("<div class=\"chart tall\" id=\"chart-pause-aligned\"></div>\n");
        b.append("<div class=\"scroll\"><table class=\"num compact pause-summary\"><thead><tr><th>run</th><th>pauses</th>")
                .append("<th>pauses met</th><th>sent during pauses</th><th>overlapping share</th><th>paused ms</th></tr></thead><tbody>\n");
        for (RunResult r : page.runs()) {
            RunResult.PauseSummary s = r.pauseSummary();
            if (s == null) {
                continue;
            }
            b.append("<tr><td class=\"run\">").append(page.swatch(r)).append(Html.esc(r.name())).append("</td>")
                    .append(Html.td(Html.count((long) s.pauses()))).append(Html.td(Html.count((long) s.pausesMet())))
                    .append(Html.td(Html.count(s.sentDuringTotal()))).append(Html.td(Html.number(100 * s.overlappingShare(), 2) + "%"))
                    .append(Html.td(Html.ms(s.pausedMs()))).append("</tr>\n");
        }
        b.append("</tbody></table></div>\n</section>\n");
    }
}
