package io.loadsmith.tester.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.result.Alignment;
import io.loadsmith.tester.result.Experiment;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsFile.SloResult;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.AboveObjective;
import io.loadsmith.tester.result.RunResult.Counts;
import io.loadsmith.tester.result.RunResult.Latency;
import io.loadsmith.tester.result.RunResult.StallRow;
import io.loadsmith.tester.result.RunResult.StallSummary;
import io.loadsmith.tester.result.RunResult.StepResult;
import io.loadsmith.tester.result.RunResult.TimelinePoint;
import io.loadsmith.tester.result.WarningGroups;
import io.loadsmith.tester.scenario.Durations;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds report.html: tables in HTML, charts drawn in the browser by ECharts from an embedded JSON block. */
final class HtmlPage {
    /** Runs above this many get their per-run tables folded. */
    private static final int OPEN_DETAILS_UP_TO = 4;

    private final ResultsFile results;
    private final List<String> chartFiles;
    private final StringBuilder b = new StringBuilder(64 * 1024);

    private HtmlPage(ResultsFile results, List<String> chartFiles) {
        this.results = results;
        this.chartFiles = chartFiles;
    }

    static String render(ResultsFile results, List<String> chartFiles, String css, String chartLibraryJs, String pageJs) {
        return new HtmlPage(results, chartFiles).page(css, chartLibraryJs, pageJs);
    }

    private String page(String css, String chartLibraryJs, String pageJs) {
        String title = title();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.esc("loadsmith report \u2014 " + title)).append("</title>\n")
                .append("<style>\n").append(css).append("\n</style>\n")
                .append("<script>window.loadsmithErrors=[];window.addEventListener('error',function(e){window.loadsmithErrors.push(String(e.message));});</script>\n")
                .append("</head>\n<body>\n");
        header(title);
        experiment(); // an experiment's dot plot says more than its many rows, so it comes first
        summary();
        slos();
        aligned();
        pauseAligned();
        spectrum();
        timeline();
        aboveObjective();
        steps();
        stalls();
        b.append("<footer>Written by loadsmith from <code>").append(ResultsWriter.FILE_NAME)
                .append("</code>. Latencies in milliseconds. <em>service</em> = end \u2212 actual send; ")
                .append("<em>corrected</em> = end \u2212 intended send.</footer>\n");
        b.append("<script type=\"application/json\" id=\"report-data\">").append(chartJson()).append("</script>\n");
        b.append("<script>\n").append(chartLibraryJs.replace("</script", "<\\/script")).append("\n</script>\n");
        b.append("<script>\n").append(pageJs).append("\n</script>\n</body>\n</html>\n");
        return b.toString();
    }

    /** The experiment's name, else the runs' names (cut at 120 characters). */
    private String title() {
        if (results.experiment() != null) {
            String name = results.experiment().name();
            return "experiment " + (name == null || name.isBlank() ? "(no name)" : name);
        }
        Set<String> names = new LinkedHashSet<>();
        results.runs().forEach(r -> names.add(r.name()));
        String joined = String.join(", ", names);
        return joined.isEmpty() ? "no runs" : joined.length() > 120 ? joined.substring(0, 117) + "..." : joined;
    }

    // ---------------------------------------------------------------- header

    private void header(String title) {
        b.append("<header>\n<h1>").append(Html.esc(title)).append("</h1>\n<p class=\"meta\">");
        List<String> meta = new ArrayList<>();
        meta.add("<span><b>" + results.runs().size() + "</b> run" + (results.runs().size() == 1 ? "" : "s") + "</span>");
        if (results.clock() != null) {
            meta.add("<span class=\"clock\">clock offset <b>" + Html.ms(results.clock().offsetNs() / 1e6) + " ms</b> \u00b1 "
                    + Html.ms(results.clock().uncertaintyNs() / 1e6) + " ms</span>");
        }
        b.append(String.join(" \u00b7 ", meta)).append("</p>\n</header>\n");
        nav();
        b.append("<div class=\"head\">\n");

        List<WarningGroups.Group> warnings = WarningGroups.of(results.runs(),
                results.experiment() == null ? List.of() : results.experiment().arms());
        if (!warnings.isEmpty()) {
            b.append("<div class=\"warnings\" id=\"warnings\"><h2>Warnings</h2><ul>\n");
            for (WarningGroups.Group w : warnings) {
                b.append(w.testerSide() ? "<li class=\"tester-side\">" : "<li>").append("<b>").append(Html.esc(w.appliesTo()))
                        .append(":</b> ").append(Html.esc(w.text())).append("</li>\n");
            }
            b.append("</ul></div>\n");
        }

        boolean fold = results.runs().size() > 8;
        if (fold) {
            b.append("<details><summary>Tester settings of ").append(results.runs().size()).append(" runs</summary>\n");
        }
        b.append("<div class=\"scroll\"><table class=\"settings\" id=\"settings\"><thead><tr><th>run</th><th>round</th>")
                .append("<th>stall</th><th>seed</th><th>tester settings</th></tr></thead><tbody>\n");
        for (RunResult r : results.runs()) {
            b.append("<tr><td class=\"run\">").append(swatch(r)).append(Html.esc(r.name())).append("</td><td>")
                    .append(r.round()).append("</td><td>").append(stallBadge(r.stall()))
                    .append("</td><td>").append(r.seed()).append("</td><td class=\"kv\">");
            for (Iterator<Map.Entry<String, JsonNode>> it = ResultsWriter.toTree(r.tester()).fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                b.append("<span class=\"chip\"><i>").append(Html.esc(e.getKey())).append("</i> ")
                        .append(Html.esc(v.isValueNode() ? v.asText() : v.toString())).append("</span> ");
            }
            b.append("</td></tr>\n");
        }
        b.append("</tbody></table></div>\n");
        if (fold) {
            b.append("</details>\n");
        }
        b.append("</div>\n");
    }

    private String stallBadge(boolean stall) {
        return stall ? "<span class=\"badge on\">on</span>" : "<span class=\"badge off\">off</span>";
    }

    private String swatch(RunResult r) {
        return "<span class=\"sw c" + (results.runs().indexOf(r) % 10) + "\"></span>";
    }

    private void nav() {
        b.append("<nav>");
        if (results.experiment() != null) {
            b.append("<a href=\"#experiment\">Experiment</a>");
        }
        b.append("<a href=\"#summary\">Summary</a>");
        if (hasSlos()) {
            b.append("<a href=\"#slos\">SLOs</a>");
        }
        if (results.alignment() != null) {
            b.append("<a href=\"#aligned\">Stall-aligned sends</a>");
        }
        if (results.pauseAlignment() != null) {
            b.append("<a href=\"#pause-aligned\">Pause-aligned sends</a>");
        }
        if (results.runs().stream().anyMatch(r -> !ChartData.spectrum(r).isEmpty())) {
            b.append("<a href=\"#spectrum\">Percentile spectrum</a>");
        }
        if (results.runs().stream().anyMatch(r -> !r.timeline().isEmpty())) {
            b.append("<a href=\"#timeline\">Over time</a>");
        }
        if (results.runs().stream().anyMatch(r -> r.aboveObjective() != null)) {
            b.append("<a href=\"#above\">Above objective</a>");
        }
        if (results.runs().stream().anyMatch(r -> !r.steps().isEmpty())) {
            b.append("<a href=\"#steps\">Steps</a>");
        }
        if (results.runs().stream().anyMatch(r -> !r.stalls().isEmpty() || r.stallSummary() != null)) {
            b.append("<a href=\"#stalls\">Stalls</a>");
        }
        b.append("</nav>\n");
    }

    // ---------------------------------------------------------------- summary table

    private void summary() {
        Set<Double> thresholds = new LinkedHashSet<>();
        results.runs().forEach(r -> {
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
        for (RunResult r : results.runs()) {
            Map<String, Latency> kinds = ChartData.latency(r);
            String span = " rowspan=\"" + kinds.size() + "\"";
            b.append("<tbody class=\"run-group\">");
            boolean first = true;
            for (Map.Entry<String, Latency> k : kinds.entrySet()) {
                Latency l = k.getValue();
                b.append("<tr class=\"kind-").append(Html.esc(k.getKey())).append("\">");
                if (first) {
                    b.append("<td class=\"run\"").append(span).append(">").append(swatch(r)).append(Html.esc(r.name()))
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
                        .append(td(Html.ms(l.p50()))).append(td(Html.ms(l.p90())))
                        .append(p99Cell(r, k.getKey(), l)).append(td(Html.ms(l.p999()))).append(td(Html.ms(l.max())))
                        .append(td(Html.ms(l.mean()))).append(td(aboveCell(r.aboveObjective(), k.getKey(), thresholds.size() > 1)));
                if (first) {
                    Counts c = r.counts();
                    b.append(tdSpan(span, Html.count(c.errors()), c.errors() > 0 ? "bad" : null))
                            .append(tdSpan(span, Html.count(c.dropped()), c.dropped() > 0 ? "bad" : null))
                            .append(tdSpan(span, Html.count(c.skipped()), c.skipped() > 0 ? "warn" : null))
                            .append(tdSpan(span, Html.number(r.achievedRate(), 1), null))
                            .append(tdSpan(span, costCell(r.cost()), null))
                            .append(tdSpan(span, r.sendLatenessMs() == null ? Html.NONE : Html.ms(r.sendLatenessMs().p99()) + " ms", null));
                }
                b.append("</tr>\n");
                first = false;
            }
            b.append("</tbody>\n");
        }
        b.append("</table></div></section>\n");
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
                : "<br><small>" + Html.number(perSecond, 1) + " ms/s</small>");
    }

    /** "outlier" after a run's name when the experiment lists it as one, with its latencies and clues as a tooltip. */
    private String outlierBadge(RunResult r) {
        Experiment e = results.experiment();
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

    private String p99Cell(RunResult r, String kind, Latency l) {
        String v = Html.ms(l.p99());
        Latency service = r.latencyMs().service();
        if (!kind.equals("service") && service.p99() > 0) {
            double ratio = l.p99() / service.p99();
            if (ratio >= 1.5) {
                return "<td class=\"gap\">" + v + " <span class=\"ratio\">\u00d7" + Html.number(ratio, ratio < 10 ? 1 : 0) + "</span></td>";
            }
        }
        return td(v);
    }

    private static String aboveCell(AboveObjective a, String kind, boolean showThreshold) {
        if (a == null || !(kind.equals("service") || kind.equals("corrected"))) {
            return Html.NONE;
        }
        long v = kind.equals("service") ? a.service() : a.corrected();
        return Html.count(v) + (showThreshold ? " <small>(&gt;" + Html.msShort(a.thresholdMs()) + ")</small>" : "");
    }

    private static String td(String html) {
        return "<td>" + html + "</td>";
    }

    private static String tdSpan(String span, String html, String cls) {
        return "<td" + span + (cls == null ? "" : " class=\"" + cls + "\"") + ">" + html + "</td>";
    }

    // ---------------------------------------------------------------- SLOs

    private boolean hasSlos() {
        return !results.slos().isEmpty();
    }

    private void slos() {
        if (!hasSlos()) {
            return;
        }
        List<SloResult> all = results.slos();
        long failed = all.stream().filter(s -> !s.pass()).count();
        b.append("<section id=\"slos\"><h2>SLO verdicts <span class=\"badge ").append(failed == 0 ? "pass\">all pass" : "fail\">" + failed + " failed")
                .append("</span></h2>\n<div class=\"scroll\"><table class=\"slos\"><thead><tr><th>run</th><th>SLO</th><th>value</th><th>verdict</th></tr></thead><tbody>\n");
        for (SloResult s : all) {
            b.append("<tr><td>all</td><td><code>").append(Html.esc(s.expr()))
                    .append("</code></td><td class=\"n\">").append(sloValue(s))
                    .append("</td><td>").append(s.pass() ? "<span class=\"badge pass\">pass</span>" : "<span class=\"badge fail\">FAIL</span>")
                    .append("</td></tr>\n");
        }
        b.append("</tbody></table></div></section>\n");
    }

    /**
     * value_percent for a share SLO ("errors < 0.1%"), value_ms for a latency SLO; files written before
     * value_percent existed put the share into value_ms, recognised by the expression's "%".
     */
    static String sloValue(SloResult s) {
        if (s.valuePercent() != null) {
            return Html.msShort(s.valuePercent()) + "%";
        }
        if (s.valueMs() == null) {
            return Html.NONE;
        }
        boolean share = s.expr() != null && s.expr().trim().endsWith("%");
        return share ? Html.msShort(s.valueMs()) + "%" : Html.ms(s.valueMs()) + " ms";
    }

    // ---------------------------------------------------------------- charts drawn in the browser

    private void downloads(String base) {
        if (chartFiles.contains(base + ".png") || chartFiles.contains(base + ".svg")) {
            b.append("<p class=\"files\">For a ticket: ");
            if (chartFiles.contains(base + ".png")) {
                b.append("<a href=\"").append(base).append(".png\">").append(base).append(".png</a> ");
            }
            if (chartFiles.contains(base + ".svg")) {
                b.append("<a href=\"").append(base).append(".svg\">").append(base).append(".svg</a>");
            }
            b.append("</p>\n");
        }
    }

    private void aligned() {
        Alignment a = results.alignment();
        if (a == null) {
            return;
        }
        b.append("<section id=\"aligned\"><h2>Requests sent around a stall</h2>\n<p class=\"hint\">x: time from the start of each stall (ms); ")
                .append("y: requests sent per ").append(Html.msShort(a.binMs())).append(" ms bin, averaged over the stalls each tester met. ")
                .append("The shaded band is the stall (").append(Html.msShort(a.stallMs())).append(" ms). A closed loop stops sending for exactly ")
                .append("the stall; an open loop keeps sending, and those requests carry the stall in their latency.</p>\n")
                .append("<div class=\"chart tall\" id=\"chart-aligned\"></div>\n");
        if (a.scatter().stream().anyMatch(s -> !s.points().isEmpty())) {
            b.append("<p class=\"hint\">Each request's corrected latency against when it was sent, relative to the stall start.</p>\n")
                    .append("<div class=\"chart tall\" id=\"chart-aligned-scatter\"></div>\n");
        }
        b.append("<div class=\"scroll\"><table class=\"num compact\"><thead><tr><th>run</th><th>stalls met</th><th>sends per bin before</th>")
                .append("<th>sends per bin during</th></tr></thead><tbody>\n");
        for (Alignment.Series s : a.series()) {
            double[] x = ChartData.binCentres(a, s);
            double before = 0, during = 0;
            int nb = 0, nd = 0;
            for (int i = 0; i < x.length; i++) {
                double y = s.sendsPerBin().get(i);
                if (x[i] < 0) {
                    before += y;
                    nb++;
                } else if (x[i] < a.stallMs()) {
                    during += y;
                    nd++;
                }
            }
            b.append("<tr><td class=\"run\">").append(Html.esc(s.run())).append("</td><td>").append(Html.count((long) s.stallsMet()))
                    .append("</td><td>").append(nb == 0 ? Html.NONE : Html.number(before / nb, 2)).append("</td><td>")
                    .append(nd == 0 ? Html.NONE : Html.number(during / nd, 2)).append("</td></tr>\n");
        }
        b.append("</tbody></table></div>\n");
        downloads("aligned");
        b.append("</section>\n");
    }

    /** Sends around the start of the service pauses met, and each run's pauses in a few numbers. */
    private void pauseAligned() {
        Alignment a = results.pauseAlignment();
        if (a == null) {
            return;
        }
        b.append("<section id=\"pause-aligned\"><h2>Requests sent around a service pause</h2>\n<p class=\"hint\">")
                .append("Pauses the agent saw in the service (safepoints and collections, and stops of the whole process), ")
                .append("not injected: x: time from the start of each pause (ms); y: requests sent per ")
                .append(Html.msShort(a.binMs())).append(" ms bin, averaged over the pauses each tester met. Pauses differ in ")
                .append("length (the longest met: ").append(Html.msShort(a.stallMs())).append(" ms); the line marks their start.</p>\n")
                .append("<div class=\"chart tall\" id=\"chart-pause-aligned\"></div>\n");
        b.append("<div class=\"scroll\"><table class=\"num compact pause-summary\"><thead><tr><th>run</th><th>pauses</th>")
                .append("<th>pauses met</th><th>sent during pauses</th><th>overlapping share</th><th>paused ms</th></tr></thead><tbody>\n");
        for (RunResult r : results.runs()) {
            RunResult.PauseSummary s = r.pauseSummary();
            if (s == null) {
                continue;
            }
            b.append("<tr><td class=\"run\">").append(swatch(r)).append(Html.esc(r.name())).append("</td>")
                    .append(td(Html.count((long) s.pauses()))).append(td(Html.count((long) s.pausesMet())))
                    .append(td(Html.count(s.sentDuringTotal()))).append(td(Html.number(100 * s.overlappingShare(), 2) + "%"))
                    .append(td(Html.ms(s.pausedMs()))).append("</tr>\n");
        }
        b.append("</tbody></table></div>\n</section>\n");
    }

    private void experiment() {
        Experiment e = results.experiment();
        if (e == null) {
            return;
        }
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
            downloads("experiment");
        }
        outliers(e);
        pairsTable("Pairs", "Differences a \u2212 b per round, in ms, on each latency; <em>told apart</em> when the experiment "
                + "could tell the two arms apart on that latency.", e.pairs());
        pairsTable("Stalls on against off", "Each arm with the stalls on against itself with them off: can this tester "
                + "see the stalls at all?", e.stallVsNoStall());
        if (!e.pairs().isEmpty() || e.stallVsNoStall() != null && !e.stallVsNoStall().isEmpty()) {
            b.append("<p class=\"hint users\"><b>What did users see?</b> The <em>corrected</em> columns: a user arriving on ")
                    .append("their own schedule waits from the moment the request was meant to be sent, the tester's own ")
                    .append("catch-up included. The <em>service</em> columns say how fast the service answered once a ")
                    .append("request was sent: what most load tools print, a paced one such as locust among them.</p>\n");
        }
        generic("Sweep", ResultsWriter.toTree(e.sweep()));
        generic("Windows", ResultsWriter.toTree(e.windows()));
        b.append("</section>\n");
    }

    /**
     * Comparisons one row per (a, b, stall state): the corrected and the service latency side by side, each with
     * its median difference, its differences per round and its verdict (and the verdict without the outliers'
     * rounds when an outlier took part).
     */
    private void pairsTable(String title, String hint, List<Experiment.Comparison> comparisons) {
        if (comparisons == null || comparisons.isEmpty()) {
            return;
        }
        Map<String, Experiment.Comparison[]> rows = new LinkedHashMap<>();
        String metric = "p99";
        for (Experiment.Comparison c : comparisons) {
            boolean service = Experiment.isService(c.metric());
            rows.computeIfAbsent(c.a() + "\u0000" + c.b() + "\u0000" + c.stall(), k -> new Experiment.Comparison[2])[service ? 1 : 0] = c;
            if (c.metric() != null) {
                metric = c.metric().replace(":service", "").replace(" corrected", "").trim();
            }
        }
        b.append("<h3>").append(Html.esc(title)).append("</h3><p class=\"hint\">").append(hint).append("</p>\n")
                .append("<div class=\"scroll\"><table class=\"pairs\"><thead><tr><th rowspan=\"2\">a</th><th rowspan=\"2\">b</th>")
                .append("<th rowspan=\"2\">stall</th><th colspan=\"3\" class=\"kind-corrected\">").append(Html.esc(metric))
                .append(" corrected <small>(from the intended send)</small></th><th colspan=\"3\" class=\"kind-service\">")
                .append(Html.esc(metric)).append(" service <small>(from the actual send)</small></th></tr>\n<tr>");
        for (int i = 0; i < 2; i++) {
            b.append("<th>median difference</th><th>differences per round</th><th>verdict</th>");
        }
        b.append("</tr></thead><tbody>\n");
        for (Experiment.Comparison[] row : rows.values()) {
            Experiment.Comparison any = row[0] != null ? row[0] : row[1];
            b.append("<tr><td>").append(Html.esc(any.a())).append("</td><td>").append(Html.esc(any.b())).append("</td><td>")
                    .append(any.stall() ? "on" : "off").append("</td>");
            for (Experiment.Comparison c : row) {
                comparisonCells(c);
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div>\n");
    }

    private void comparisonCells(Experiment.Comparison c) {
        if (c == null) {
            b.append("<td class=\"n\">").append(Html.NONE).append("</td><td></td><td></td>");
            return;
        }
        List<Double> d = new ArrayList<>(c.differencesMs());
        d.sort(null);
        Double median = d.isEmpty() ? null : d.size() % 2 == 1 ? d.get(d.size() / 2) : (d.get(d.size() / 2 - 1) + d.get(d.size() / 2)) / 2;
        StringBuilder list = new StringBuilder();
        for (Double v : c.differencesMs()) {
            list.append(list.length() == 0 ? "" : ", ").append(Html.ms(v));
        }
        b.append("<td class=\"n\">").append(Html.ms(median)).append("</td><td class=\"n small\">").append(list)
                .append("</td><td>").append(verdictBadge(c.toldApart()));
        Experiment.WithoutOutliers w = c.withoutOutliers();
        if (w != null) {
            String rounds = "round" + (w.leftOut().size() == 1 ? " " : "s ") + w.leftOut().stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining(", "));
            if (w.toldApart() != c.toldApart()) {
                b.append("<br><small class=\"without\">without ").append(rounds).append(" (outlier): </small>")
                        .append(verdictBadge(w.toldApart()));
            } else {
                b.append("<br><small class=\"without\">the same without ").append(rounds).append(" (outlier)</small>");
            }
        }
        b.append("</td>");
    }

    private static String verdictBadge(boolean toldApart) {
        return toldApart ? "<span class=\"badge pass\">told apart</span>" : "<span class=\"badge off\">not told apart</span>";
    }

    /** The runs far from their arm's other rounds, with what each recorded that may explain it. */
    private void outliers(Experiment e) {
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

    /** Parts whose shape is not fixed yet (sweep, windows): objects as key-value tables, lists as rows. */
    private void generic(String title, JsonNode node) {
        if (node == null) {
            return;
        }
        b.append("<h3>").append(Html.esc(title)).append("</h3>\n");
        value(node);
        b.append("\n");
    }

    private void value(JsonNode node) {
        if (node == null || node.isNull()) {
            b.append(Html.NONE);
        } else if (node.isValueNode()) {
            b.append(Html.esc(node.asText()));
        } else if (node.isObject()) {
            b.append("<table class=\"kvtable\"><tbody>");
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                b.append("<tr><th>").append(Html.esc(e.getKey())).append("</th><td>");
                value(e.getValue());
                b.append("</td></tr>");
            }
            b.append("</tbody></table>");
        } else {
            boolean scalars = true;
            boolean objects = node.size() > 0;
            for (JsonNode item : node) {
                scalars &= item.isValueNode() || item.isNull();
                objects &= item.isObject();
            }
            if (scalars) {
                List<String> items = new ArrayList<>();
                node.forEach(item -> items.add(item.isNull() ? Html.NONE : Html.esc(item.asText())));
                b.append(String.join(", ", items));
            } else if (objects) {
                Set<String> columns = new LinkedHashSet<>();
                node.forEach(item -> item.fieldNames().forEachRemaining(columns::add));
                b.append("<div class=\"scroll\"><table class=\"listtable\"><thead><tr>");
                columns.forEach(c -> b.append("<th>").append(Html.esc(c)).append("</th>"));
                b.append("</tr></thead><tbody>");
                for (JsonNode item : node) {
                    b.append("<tr>");
                    for (String c : columns) {
                        b.append("<td>");
                        value(item.get(c));
                        b.append("</td>");
                    }
                    b.append("</tr>");
                }
                b.append("</tbody></table></div>");
            } else {
                b.append("<pre>").append(Html.esc(node.toPrettyString())).append("</pre>");
            }
        }
    }

    private void spectrum() {
        if (results.runs().stream().allMatch(r -> ChartData.spectrum(r).isEmpty())) {
            return;
        }
        b.append("<section id=\"spectrum\"><h2>Percentile spectrum</h2>\n<p class=\"hint\">Latency at each percentile; the x axis ")
                .append("is in \u201cnines\u201d (1/(1\u2212p), logarithmic), as HdrHistogram plots it. Solid: corrected; dashed: service. ")
                .append("Click a legend entry to hide a line.</p>\n<div class=\"chart tall\" id=\"chart-spectrum\"></div>\n");
        downloads("spectrum");
        b.append("</section>\n");
    }

    private void timeline() {
        List<RunResult> withTimeline = results.runs().stream().filter(r -> !r.timeline().isEmpty()).toList();
        if (withTimeline.isEmpty()) {
            return;
        }
        b.append("<section id=\"timeline\"><h2>Latency over time</h2>\n<p class=\"hint\">Per second of intended time: p50 and p99 of ")
                .append("corrected (red) and service (blue) latency, one chart per run.</p>\n<div class=\"grid\">\n");
        for (RunResult r : withTimeline) {
            b.append("<figure><figcaption>").append(swatch(r)).append(Html.esc(r.name())).append("</figcaption><div class=\"chart small\" id=\"chart-timeline-")
                    .append(results.runs().indexOf(r)).append("\"></div></figure>\n");
        }
        b.append("</div>\n");
        downloads("timeline");
        b.append("</section>\n");
    }

    // ---------------------------------------------------------------- tables per run

    private void aboveObjective() {
        List<RunResult> with = results.runs().stream().filter(r -> r.aboveObjective() != null).toList();
        if (with.isEmpty()) {
            return;
        }
        b.append("<section id=\"above\"><h2>Requests above the objective</h2>\n<div class=\"scroll\"><table class=\"num above\"><thead><tr><th>run</th>")
                .append("<th>objective</th><th>sent</th><th>service above</th><th>corrected above</th><th></th></tr></thead><tbody>\n");
        long most = 1;
        for (RunResult r : with) {
            most = Math.max(most, Math.max(r.aboveObjective().service(), r.aboveObjective().corrected()));
        }
        for (RunResult r : with) {
            AboveObjective a = r.aboveObjective();
            long completed = r.counts().sent(); // requests that ended: sent = completed + errors
            b.append("<tr><td class=\"run\">").append(swatch(r)).append(Html.esc(r.name())).append("</td><td>")
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

    private static String bar(String kind, long v, long most) {
        double width = 100.0 * v / most;
        return "<div class=\"bar " + kind + "\" style=\"width:" + String.format(java.util.Locale.ROOT, "%.1f", width) + "%\" title=\""
                + kind + " " + v + "\"></div>";
    }

    private void details(RunResult r, String summary) {
        b.append("<details").append(results.runs().size() <= OPEN_DETAILS_UP_TO ? " open" : "").append("><summary>")
                .append(swatch(r)).append(Html.esc(r.name())).append(summary == null ? "" : " <small>" + summary + "</small>").append("</summary>\n");
    }

    private void steps() {
        List<RunResult> with = results.runs().stream().filter(r -> !r.steps().isEmpty()).toList();
        if (with.isEmpty()) {
            return;
        }
        b.append("<section id=\"steps\"><h2>Per step</h2>\n");
        for (RunResult r : with) {
            details(r, plural(r.steps().size(), "step"));
            b.append("<div class=\"scroll\"><table class=\"num steps\"><thead><tr><th>step</th><th>sent</th><th>completed</th><th>errors</th>")
                    .append("<th>latency</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th></tr></thead><tbody>\n");
            for (StepResult s : r.steps()) {
                Map<String, Latency> kinds = new LinkedHashMap<>();
                if (s.latencyMs() != null) {
                    kinds.put("service", s.latencyMs().service());
                    kinds.put("corrected", s.latencyMs().corrected());
                } else {
                    kinds.put("\u2014", null);
                }
                String span = kinds.size() > 1 ? " rowspan=\"" + kinds.size() + "\"" : "";
                boolean first = true;
                for (Map.Entry<String, Latency> k : kinds.entrySet()) {
                    Latency l = k.getValue();
                    b.append("<tr>");
                    if (first) {
                        b.append("<td class=\"run\"").append(span).append(">")
                                .append(Html.esc(s.name() == null ? "step " + s.step() : s.name())).append("</td>")
                                .append(tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().sent()), null))
                                .append(tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().completed()), null))
                                .append(tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().errors()), null));
                    }
                    b.append("<td class=\"kind\">").append(Html.esc(k.getKey())).append("</td>");
                    for (Double v : l == null ? java.util.Collections.<Double>nCopies(6, null)
                            : List.of(l.p50(), l.p90(), l.p99(), l.p999(), l.max(), l.mean())) {
                        b.append(td(Html.ms(v)));
                    }
                    b.append("</tr>\n");
                    first = false;
                }
            }
            b.append("</tbody></table></div></details>\n");
        }
        b.append("</section>\n");
    }

    private void stalls() {
        List<RunResult> with = results.runs().stream().filter(r -> !r.stalls().isEmpty() || r.stallSummary() != null).toList();
        if (with.isEmpty()) {
            return;
        }
        b.append("<section id=\"stalls\"><h2>Stalls</h2>\n<p class=\"hint\">Per stall and run: <em>held</em> is what the agent's gate held; ")
                .append("<em>sent during</em> and <em>intended during</em> count sends inside the window by actual and intended time; ")
                .append("<em>overlapping</em> counts requests whose lifetime overlaps the window.</p>\n")
                .append("<div class=\"scroll\"><table class=\"num stall-summary\"><thead><tr><th>run</th><th>stalls met</th><th>sent during stalls</th>")
                .append("<th>overlapping share</th><th>p99 can see the stalls</th></tr></thead><tbody>\n");
        for (RunResult r : with) {
            StallSummary s = r.stallSummary();
            b.append("<tr><td class=\"run\">").append(swatch(r)).append(Html.esc(r.name())).append("</td>");
            if (s == null) {
                b.append("<td>").append(r.stalls().size()).append("</td><td>").append(Html.NONE).append("</td><td>").append(Html.NONE)
                        .append("</td><td>").append(Html.NONE).append("</td>");
            } else {
                b.append(td(Html.count((long) s.stallsMet()))).append(td(Html.count(s.sentDuringTotal())))
                        .append(td(Html.percent(s.overlappingShare())))
                        .append(td(s.p99CanSeeStalls() ? "<span class=\"badge pass\">yes</span>" : "<span class=\"badge fail\">no</span>"));
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div>\n");
        for (RunResult r : with) {
            if (r.stalls().isEmpty()) {
                continue;
            }
            long firstStart = r.stalls().stream().mapToLong(StallRow::startNs).min().orElse(0);
            details(r, plural(r.stalls().size(), "stall"));
            b.append("<div class=\"scroll\"><table class=\"num stall-table\"><thead><tr><th>#</th><th>start (ms after first)</th><th>length ms</th>")
                    .append("<th>held</th><th>sent during</th><th>intended during</th><th>in flight at start</th><th>overlapping</th>");
            b.append("<th>met</th></tr></thead><tbody>\n");
            for (StallRow s : r.stalls()) {
                double start = (s.startNs() - firstStart) / 1e6;
                double length = (s.endNs() - s.startNs()) / 1e6;
                b.append(s.met() ? "<tr><td>" : "<tr class=\"not-met\"><td>")
                        .append(s.index()).append("</td>").append(td(Html.ms(start)))
                        .append(td(Html.ms(length))).append(td(Html.count(s.held()))).append(td(Html.count(s.sentDuring())))
                        .append(td(Html.count(s.intendedDuring()))).append(td(Html.count(s.inFlightAtStart())))
                        .append(td(Html.count(s.overlapping()))).append(td(Html.yesNo(s.met()))).append("</tr>\n");
            }
            b.append("</tbody></table></div></details>\n");
        }
        b.append("</section>\n");
    }

    private static String plural(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    // ---------------------------------------------------------------- data for the page's script

    /** The lines of an aligned plot: per series its run, the windows it met (under {@code metKey}) and [x, y] points. */
    private static List<Map<String, Object>> lines(Alignment a, String metKey) {
        List<Map<String, Object>> series = new ArrayList<>();
        for (Alignment.Series s : a.series()) {
            double[] x = ChartData.binCentres(a, s);
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < x.length; i++) {
                points.add(new double[] {x[i], s.sendsPerBin().get(i)});
            }
            series.add(Map.of("run", String.valueOf(s.run()), metKey, s.stallsMet(), "points", points));
        }
        return series;
    }

    private String chartJson() {
        Map<String, Object> data = new LinkedHashMap<>();
        List<Map<String, Object>> runs = new ArrayList<>();
        for (int i = 0; i < results.runs().size(); i++) {
            RunResult r = results.runs().get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", r.name());
            m.put("index", i);
            if (!r.timeline().isEmpty()) {
                List<Object[]> t = new ArrayList<>();
                for (TimelinePoint p : r.timeline()) {
                    t.add(new Object[] {p.tS(), p.service() == null ? null : p.service().p50(),
                        p.service() == null ? null : p.service().p99(), p.corrected() == null ? null : p.corrected().p50(),
                        p.corrected() == null ? null : p.corrected().p99(), p.count(), p.errors()});
                }
                m.put("timeline", t);
            }
            if (!r.stalls().isEmpty()) {
                m.put("stalls", ChartData.stallSeconds(r));
            }
            if (r.servicePauses() != null && !r.servicePauses().isEmpty()) {
                m.put("pauses", ChartData.pauseSeconds(r));
            }
            Map<String, Object> spectrum = new LinkedHashMap<>();
            ChartData.spectrum(r).forEach((kind, points) -> spectrum.put(kind, ChartData.nines(points)));
            if (!spectrum.isEmpty()) {
                m.put("spectrum", spectrum);
            }
            runs.add(m);
        }
        data.put("runs", runs);
        Alignment a = results.alignment();
        if (a != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("stallMs", a.stallMs());
            m.put("binMs", a.binMs());
            m.put("fromMs", a.fromMs());
            m.put("toMs", a.toMs());
            m.put("series", lines(a, "stallsMet"));
            List<Map<String, Object>> scatter = new ArrayList<>();
            for (Alignment.Scatter s : a.scatter()) {
                scatter.add(Map.of("run", String.valueOf(s.run()), "points", s.points()));
            }
            m.put("scatter", scatter);
            data.put("aligned", m);
        }
        Alignment p = results.pauseAlignment();
        if (p != null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fromMs", p.fromMs());
            m.put("toMs", p.toMs());
            m.put("binMs", p.binMs());
            m.put("series", lines(p, "pausesMet"));
            data.put("pauseAligned", m);
        }
        Experiment e = results.experiment();
        if (e != null && !e.arms().isEmpty()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("arms", e.arms());
            m.put("metric", ChartData.plottedMetric(e));
            for (String kind : List.of("corrected", "service")) {
                List<ChartData.Dot> found = ChartData.dots(e, results.runs(), kind);
                List<Map<String, Object>> dots = new ArrayList<>();
                for (ChartData.Dot d : found) {
                    dots.add(Map.of("x", d.x(), "y", d.valueMs(), "stall", d.stall(), "round", d.round(), "run", d.run(),
                            "outlier", d.outlier()));
                }
                m.put(kind, dots);
                m.put(kind + "Log", ChartData.logScale(found));
            }
            data.put("experiment", m);
        }
        try {
            // "<" only occurs inside JSON strings, where \u003c means the same: no "</script>" can end the block early
            return new ObjectMapper().writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
