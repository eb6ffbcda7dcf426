package io.loadsmith.tester.report;

import io.loadsmith.tester.result.ResultsFile.SloResult;
import java.util.List;

/** The scenario's SLOs and their verdicts. */
final class SloSection implements Section {
    private final PageContext page;

    SloSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "slos";
    }

    @Override
    public String navTitle() {
        return "SLOs";
    }

    @Override
    public boolean shown() {
        return !page.results().slos().isEmpty();
    }

    @Override
    public void appendTo(StringBuilder b) {
        List<SloResult> all = page.results().slos();
        long failed = all.stream().filter(s -> !s.pass()).count();
        b.append("<section id=\"slos\"><h2>SLO verdicts ").append(failed == 0 ? Html.badge("pass", "all pass") : Html.badge("fail", failed + " failed"))
                .append("</h2>\n<div class=\"scroll\"><table class=\"slos\"><thead><tr><th>run</th><th>SLO</th><th>value</th><th>verdict</th></tr></thead><tbody>\n");
        for (SloResult s : all) {
            b.append("<tr><td>all</td><td><code>").append(Html.esc(s.expr()))
                    .append("</code></td><td class=\"n\">").append(sloValue(s))
                    .append("</td><td>").append(s.pass() ? Html.badge("pass", "pass") : Html.badge("fail", "FAIL"))
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
}
