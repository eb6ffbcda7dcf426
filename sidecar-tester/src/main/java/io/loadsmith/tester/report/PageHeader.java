package io.loadsmith.tester.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.WarningGroups;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The top of the page: the title and its few facts, the nav to the sections shown, the warnings and each run's settings. */
final class PageHeader {
    /** Runs above this many get their settings table folded. */
    private static final int OPEN_SETTINGS_UP_TO = 8;

    private final PageContext page;
    private final ResultsFile results;

    PageHeader(PageContext page) {
        this.page = page;
        this.results = page.results();
    }

    void appendTo(StringBuilder b, String title, List<Section> sections) {
        b.append("<header>\n<h1>").append(Html.esc(title)).append("</h1>\n<p class=\"meta\">");
        List<String> meta = new ArrayList<>();
        meta.add("<span><b>" + results.runs().size() + "</b> run" + (results.runs().size() == 1 ? "" : "s") + "</span>");
        if (results.clock() != null) {
            meta.add("<span class=\"clock\">clock offset <b>" + Html.ms(results.clock().offsetNs() / 1e6) + " ms</b> \u00b1 "
                    + Html.ms(results.clock().uncertaintyNs() / 1e6) + " ms</span>");
        }
        b.append(String.join(" \u00b7 ", meta)).append("</p>\n</header>\n");
        nav(b, sections);
        b.append("<div class=\"head\">\n");
        warnings(b);
        settings(b);
        b.append("</div>\n");
    }

    private static void nav(StringBuilder b, List<Section> sections) {
        b.append("<nav>");
        for (Section s : sections) {
            if (s.shown()) {
                b.append("<a href=\"#").append(s.id()).append("\">").append(s.navTitle()).append("</a>");
            }
        }
        b.append("</nav>\n");
    }

    private void warnings(StringBuilder b) {
        List<WarningGroups.Group> warnings = WarningGroups.of(results.runs(),
                results.experiment() == null ? List.of() : results.experiment().arms());
        if (warnings.isEmpty()) {
            return;
        }
        b.append("<div class=\"warnings\" id=\"warnings\"><h2>Warnings</h2><ul>\n");
        for (WarningGroups.Group w : warnings) {
            b.append(w.testerSide() ? "<li class=\"tester-side\">" : "<li>").append("<b>").append(Html.esc(w.appliesTo()))
                    .append(":</b> ").append(Html.esc(w.text())).append("</li>\n");
        }
        b.append("</ul></div>\n");
    }

    /**
     * One row per run: its round, stall state, seed, what ran in the service (the plan armed and the agent's
     * pause observer, for a run with an agent) and every tester setting as a chip.
     */
    private void settings(StringBuilder b) {
        boolean fold = results.runs().size() > OPEN_SETTINGS_UP_TO;
        if (fold) {
            b.append("<details><summary>Tester settings of ").append(results.runs().size()).append(" runs</summary>\n");
        }
        b.append("<div class=\"scroll\"><table class=\"settings\" id=\"settings\"><thead><tr><th>run</th><th>round</th>")
                .append("<th>stall</th><th>seed</th><th>in the service</th><th>tester settings</th></tr></thead><tbody>\n");
        for (RunResult r : results.runs()) {
            b.append("<tr><td class=\"run\">").append(page.swatch(r)).append(Html.esc(r.name())).append("</td><td>")
                    .append(r.round()).append("</td><td>").append(r.stall() ? Html.badge("on", "on") : Html.badge("off", "off"))
                    .append("</td><td>").append(r.seed()).append("</td><td>")
                    .append(r.agentActivity() == null ? "no agent" : Html.esc(r.agentActivity().describe()))
                    .append("</td><td class=\"kv\">");
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
    }
}
