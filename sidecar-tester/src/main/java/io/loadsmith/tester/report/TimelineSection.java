package io.loadsmith.tester.report;

import io.loadsmith.tester.result.RunResult;
import java.util.List;

/** Latency over time, one small chart per run that has a timeline, drawn in the browser. */
final class TimelineSection implements Section {
    private final PageContext page;

    TimelineSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "timeline";
    }

    @Override
    public String navTitle() {
        return "Over time";
    }

    @Override
    public boolean shown() {
        return !withTimeline().isEmpty();
    }

    private List<RunResult> withTimeline() {
        return page.runs().stream().filter(r -> !r.timeline().isEmpty()).toList();
    }

    @Override
    public void appendTo(StringBuilder b) {
        b.append("<section id=\"timeline\"><h2>Latency over time</h2>\n<p class=\"hint\">Per second of intended time: p50 and p99 of ")
                .append("corrected (red) and service (blue) latency, one chart per run.</p>\n<div class=\"grid\">\n");
        for (RunResult r : withTimeline()) {
            b.append("<figure><figcaption>").append(page.swatch(r)).append(Html.esc(r.name())).append("</figcaption><div class=\"chart small\" id=\"chart-timeline-")
                    .append(page.runs().indexOf(r)).append("\"></div></figure>\n");
        }
        b.append("</div>\n");
        b.append(page.downloads("timeline"));
        b.append("</section>\n");
    }
}
