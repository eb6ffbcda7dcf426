package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Alignment;

/** Requests sent around the injected stalls: the aligned sends (and their latencies), and per run the sends before and during. */
final class AlignedSection implements Section {
    private static final String REPLAYED_HINT = "<p class=\"hint\">A replayed profile's windows differ in length (the band is the "
            + "longest): a dashed line marks where each ends; hover it for the pause it replays, or see "
            + "<a href=\"#replay\">the profile beside the agent's windows</a>.</p>\n";
    private final PageContext page;

    AlignedSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "aligned";
    }

    @Override
    public String navTitle() {
        return "Stall-aligned sends";
    }

    @Override
    public boolean shown() {
        return page.results().alignment() != null;
    }

    @Override
    public void appendTo(StringBuilder b) {
        Alignment a = page.results().alignment();
        b.append("<section id=\"aligned\"><h2>Requests sent around a stall</h2>\n<p class=\"hint\">x: time from the start of each stall (ms); ")
                .append("y: requests sent per ").append(Html.msShort(a.binMs())).append(" ms bin, averaged over the stalls each tester met. ")
                .append("The shaded band is the stall (").append(Html.msShort(a.stallMs())).append(" ms). A closed loop stops sending for exactly ")
                .append("the stall; an open loop keeps sending, and those requests carry the stall in their latency.</p>\n")
                .append(ChartData.replayedWindows(page.runs()).isEmpty() ? "" : REPLAYED_HINT)
                .append("<div class=\"chart tall\" id=\"chart-aligned\"></div>\n");
        if (a.scatter().stream().anyMatch(s -> !s.points().isEmpty())) {
            b.append("<p class=\"hint\">Each request's corrected latency against when it was sent, relative to the stall start.</p>\n")
                    .append("<div class=\"chart tall\" id=\"chart-aligned-scatter\"></div>\n");
        }
        b.append("<div class=\"scroll\"><table class=\"num compact\"><thead><tr><th>run</th><th>stalls met</th><th>sends per bin before</th>")
                .append("<th>sends per bin during</th></tr></thead><tbody>\n");
        for (Alignment.Series s : a.series()) {
            row(b, a, s);
        }
        b.append("</tbody></table></div>\n");
        b.append(page.downloads("aligned"));
        b.append("</section>\n");
    }

    /** The series' mean sends per bin before the stall and during it. */
    private static void row(StringBuilder b, Alignment a, Alignment.Series s) {
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
}
