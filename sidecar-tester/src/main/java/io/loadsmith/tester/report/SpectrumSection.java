package io.loadsmith.tester.report;

/** The percentile spectrum of every run, drawn in the browser. */
final class SpectrumSection implements Section {
    private final PageContext page;

    SpectrumSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "spectrum";
    }

    @Override
    public String navTitle() {
        return "Percentile spectrum";
    }

    @Override
    public boolean shown() {
        return page.runs().stream().anyMatch(r -> !ChartData.spectrum(r).isEmpty());
    }

    @Override
    public void appendTo(StringBuilder b) {
        b.append("<section id=\"spectrum\"><h2>Percentile spectrum</h2>\n<p class=\"hint\">Latency at each percentile; the x axis ")
                .append("is in \u201cnines\u201d (1/(1\u2212p), logarithmic), as HdrHistogram plots it. Solid: corrected; dashed: service. ")
                .append("Click a legend entry to hide a line.</p>\n<div class=\"chart tall\" id=\"chart-spectrum\"></div>\n");
        b.append(page.downloads("spectrum"));
        b.append("</section>\n");
    }
}
