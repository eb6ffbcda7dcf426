package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsWriter;

/** An experiment's arms and rounds: the dot plots, the outliers, the comparisons and the sweep and windows. */
final class ExperimentSection implements Section {
    private final PageContext page;

    ExperimentSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "experiment";
    }

    @Override
    public String navTitle() {
        return "Experiment";
    }

    @Override
    public boolean shown() {
        return page.results().experiment() != null;
    }

    @Override
    public void appendTo(StringBuilder b) {
        Experiment e = page.results().experiment();
        b.append("<section id=\"experiment\"><h2>Experiment</h2>\n<p class=\"meta\">");
        b.append("<b>").append(e.rounds()).append("</b> rounds \u00b7 ");
        if (e.metric() != null) {
            b.append("metric <b>").append(Html.esc(e.metric())).append("</b> \u00b7 ");
        }
        b.append("arms: ");
        for (int i = 0; i < e.arms().size(); i++) {
            b.append(i > 0 ? ", " : "").append("<b>").append(Html.esc(e.arms().get(i))).append("</b>");
        }
        b.append("</p>\n");
        if (!e.arms().isEmpty()) {
            b.append("<p class=\"hint\">Every dot is one round of one arm: hollow with the stalls off, filled with them on; ")
                    .append("a square marks an outlier. A chart whose values span more than a decade has a logarithmic axis, ")
                    .append("so that every arm stays visible.</p>\n")
                    .append("<div class=\"pair-charts\"><div class=\"chart\" id=\"chart-experiment-corrected\"></div>")
                    .append("<div class=\"chart\" id=\"chart-experiment-service\"></div></div>\n");
            b.append(page.downloads("experiment"));
        }
        outliers(b, e);
        ComparisonTable.appendTo(b, "Pairs", "Differences a \u2212 b per round, in ms, on each latency; <em>told apart</em> "
                + "when the experiment could tell the two arms apart on that latency.", e.pairs());
        ComparisonTable.appendTo(b, "Stalls on against off", "Each arm with the stalls on against itself with them off: "
                + "can this tester see the stalls at all?", e.stallVsNoStall());
        if (!e.pairs().isEmpty() || e.stallVsNoStall() != null && !e.stallVsNoStall().isEmpty()) {
            b.append("<p class=\"hint users\"><b>What did users see?</b> The <em>corrected</em> columns: a user arriving on ")
                    .append("their own schedule waits from the moment the request was meant to be sent, the tester's own ")
                    .append("catch-up included. The <em>service</em> columns say how fast the service answered once a ")
                    .append("request was sent: what most load tools print, a paced one such as locust among them.</p>\n");
        }
        JsonTables.appendTo(b, "Sweep", ResultsWriter.toTree(e.sweep()));
        JsonTables.appendTo(b, "Windows", ResultsWriter.toTree(e.windows()));
        b.append("</section>\n");
    }

    /** The runs far from their arm's other rounds, with what each recorded that may explain it. */
    private static void outliers(StringBuilder b, Experiment e) {
        if (e.outliers().isEmpty()) {
            return;
        }
        b.append("<h3 id=\"outliers\">Outliers</h3><p class=\"hint\">A run is an outlier when its value is more than 3 times ")
                .append("the median of its arm's other rounds (same stall state and latency) or less than a third of it, or ")
                .append("when it lies outside their range by more than that range. Each is marked in the charts (a square) ")
                .append("and in the table below; what the run itself recorded follows it.</p>\n")
                .append("<div class=\"scroll\"><table class=\"outliers\"><thead><tr><th>run</th><th>latency</th><th>value</th>")
                .append("<th>other rounds: median (range)</th><th>rule</th><th>what the run recorded</th></tr></thead><tbody>\n");
        for (Experiment.Outlier o : e.outliers()) {
            b.append("<tr><td class=\"run\">").append(Html.esc(o.run())).append("</td><td>").append(Html.esc(o.metric() + " " + o.latency()))
                    .append("</td><td class=\"n\">").append(Html.ms(o.valueMs())).append(" ms</td><td class=\"n\">")
                    .append(Html.ms(o.othersMedianMs())).append(" ms (").append(Html.ms(o.othersMinMs())).append("\u2013")
                    .append(Html.ms(o.othersMaxMs())).append(")</td><td>").append(Html.esc(o.rule())).append("</td><td class=\"clues\">")
                    .append(Html.esc(o.explanation())).append("</td></tr>\n");
        }
        b.append("</tbody></table></div>\n");
    }
}
