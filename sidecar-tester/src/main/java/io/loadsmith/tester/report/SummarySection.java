package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.AboveObjective;
import io.loadsmith.tester.result.RunResult.Counts;
import io.loadsmith.tester.result.RunResult.Latency;
import io.loadsmith.tester.scenario.Durations;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The runs side by side: one row per run and latency kind, with the run's counts, rate and cost. */
final class SummarySection implements Section {
    private final PageContext page;

    SummarySection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "summary";
    }

    @Override
    public String navTitle() {
        return "Summary";
    }

    @Override
    public boolean shown() {
        return true;
    }

    @Override
    public void appendTo(StringBuilder b) {
        Set<Double> thresholds = new LinkedHashSet<>();
        page.runs().forEach(r -> {
            if (r.aboveObjective() != null) {
                thresholds.add(r.aboveObjective().thresholdMs());
            }
        });
        String aboveHeader = thresholds.size() == 1 ? "&gt; " + Html.msShort(thresholds.iterator().next()) + " ms" : "&gt; objective";
        b.append("<section id=\"summary\"><h2>Side by side</h2>\n")
                .append("<p class=\"hint\">One row per run and latency kind. <em>corrected</em> is timed from the moment the ")
                .append("request should have been sent, so it includes waiting the tester did not do; the \u00d7 figure is ")
                .append("corrected p99 over service p99.</p>\n")
                .append("<div class=\"scroll\"><table class=\"summary num\"><thead><tr><th>run</th><th>latency</th>")
                .append("<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th><th>")
                .append(aboveHeader).append("</th><th>errors</th><th>dropped</th><th>skipped</th>")
                .append("<th>achieved rate /s</th><th>tester cost ns/req</th><th>send lateness p99</th></tr></thead>\n");
        for (RunResult r : page.runs()) {
            run(b, r, thresholds.size() > 1);
        }
        b.append("</table></div></section>\n");
    }

    /** The run's rows, one per latency kind; the run's name and counts span them. */
    private void run(StringBuilder b, RunResult r, boolean showThreshold) {
        Map<String, Latency> kinds = ChartData.latency(r);
        String span = " rowspan=\"" + kinds.size() + "\"";
        b.append("<tbody class=\"run-group\">");
        boolean first = true;
        for (Map.Entry<String, Latency> k : kinds.entrySet()) {
            Latency l = k.getValue();
            b.append("<tr class=\"kind-").append(Html.esc(k.getKey())).append("\">");
            if (first) {
                b.append("<td class=\"run\"").append(span).append(">").append(page.swatch(r)).append(Html.esc(r.name()))
                        .append(outlierBadge(r));
                b.append("<br><small>").append(Html.esc(r.tester().model()))
                        .append(r.stall() ? ", stall on" : ", stall off").append(precision(r)).append("</small>");
                b.append("</td>");
            }
            b.append("<td class=\"kind\">").append(Html.esc(kindLabel(k.getKey(), r)));
            if (k.getKey().equals("corrected") && "closed".equals(r.tester().model()) && sameAs(l, kinds.get("service"))) {
                b.append("<br><small>= service: a closed loop has no schedule</small>");
            }
            b.append("</td>")
                    .append(Html.td(Html.ms(l.p50()))).append(Html.td(Html.ms(l.p90())))
                    .append(p99Cell(r, k.getKey(), l)).append(Html.td(Html.ms(l.p999()))).append(Html.td(Html.ms(l.max())))
                    .append(Html.td(Html.ms(l.mean()))).append(Html.td(aboveCell(r.aboveObjective(), k.getKey(), showThreshold)));
            if (first) {
                Counts c = r.counts();
                b.append(Html.tdSpan(span, Html.count(c.errors()), c.errors() > 0 ? "bad" : null))
                        .append(Html.tdSpan(span, Html.count(c.dropped()), c.dropped() > 0 ? "bad" : null))
                        .append(Html.tdSpan(span, Html.count(c.skipped()), c.skipped() > 0 ? "warn" : null))
                        .append(Html.tdSpan(span, Html.number(r.achievedRate(), 1), null))
                        .append(Html.tdSpan(span, costCell(r.cost()), null))
                        .append(Html.tdSpan(span, r.sendLatenessMs() == null ? Html.NONE : Html.ms(r.sendLatenessMs().p99()) + " ms", null));
            }
            b.append("</tr>\n");
            first = false;
        }
        b.append("</tbody>\n");
    }

    /** ", precision 50us" for a run that says how late a send may go by design (load.precision). */
    private static String precision(RunResult r) {
        Double ms = r.tester().precisionMs();
        return ms == null ? "" : ", precision " + Html.esc(Durations.format(Math.round(ms * 1e6)));
    }

    /** CPU ns per request, and below it ms per second of run (the fixed cost) when the file has it. */
    private static String costCell(RunResult.Cost cost) {
        if (cost == null || cost.cpuNsPerRequest() < 0) {
            return Html.NONE;
        }
        Double perSecond = cost.cpuMsPerSecond();
        return Html.number(cost.cpuNsPerRequest(), 0) + (perSecond == null || perSecond < 0 ? ""
                : "<br><small>" + Html.number(perSecond, 1) + " ms/s</small>")
                + (cost.rssMaxMb() == null ? "" : "<br><small>peak RSS " + Html.number(cost.rssMaxMb(), 1) + " MB</small>");
    }

    /** "outlier" after a run's name when the experiment lists it as one, with its latencies and clues as a tooltip. */
    private String outlierBadge(RunResult r) {
        Experiment e = page.results().experiment();
        if (e == null) {
            return "";
        }
        List<String> notes = new ArrayList<>();
        for (Experiment.Outlier o : e.outliers()) {
            if (o.run().equals(r.name())) {
                notes.add(o.metric() + " " + o.latency() + " " + Html.ms(o.valueMs()) + " ms against a median of "
                        + Html.ms(o.othersMedianMs()) + " ms in the other rounds: " + o.explanation());
            }
        }
        return notes.isEmpty() ? "" : " <a href=\"#outliers\" class=\"badge outlier\" title=\"" + Html.esc(String.join("\n", notes))
                + "\">outlier</a>";
    }

    private static boolean sameAs(Latency a, Latency b) {
        return a.p50() == b.p50() && a.p99() == b.p99() && a.max() == b.max();
    }

    private static String kindLabel(String kind, RunResult r) {
        if (kind.equals("estimated")) {
            return r.estimate() == null ? "estimated" : "estimated (interval " + Html.msShort(r.estimate().intervalMs()) + " ms)";
        }
        return kind;
    }

    /** The p99, and the × figure over the service p99 when it is at least 1.5. */
    private static String p99Cell(RunResult r, String kind, Latency l) {
        String v = Html.ms(l.p99());
        Latency service = r.latencyMs().service();
        if (!kind.equals("service") && service.p99() > 0) {
            double ratio = l.p99() / service.p99();
            if (ratio >= 1.5) {
                return "<td class=\"gap\">" + v + " <span class=\"ratio\">\u00d7" + Html.number(ratio, ratio < 10 ? 1 : 0) + "</span></td>";
            }
        }
        return Html.td(v);
    }

    private static String aboveCell(AboveObjective a, String kind, boolean showThreshold) {
        if (a == null || !(kind.equals("service") || kind.equals("corrected"))) {
            return Html.NONE;
        }
        long v = kind.equals("service") ? a.service() : a.corrected();
        return Html.count(v) + (showThreshold ? " <small>(&gt;" + Html.msShort(a.thresholdMs()) + ")</small>" : "");
    }
}
