package io.loadsmith.tester.report;

import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.RunResult;
import java.util.List;

/**
 * What every section of one page reads: the results, the chart files written next to the page, and the
 * marks a run carries wherever it appears (its colour swatch, its folded table).
 *
 * @param chartFiles the PNG/SVG files written next to report.html (names, no folders)
 */
record PageContext(ResultsFile results, List<String> chartFiles) {
    /** Runs above this many get their per-run tables folded. */
    private static final int OPEN_DETAILS_UP_TO = 4;

    List<RunResult> runs() {
        return results.runs();
    }

    /** The run's colour, the same in every table and chart (ten colours, by the run's place in the file). */
    String swatch(RunResult r) {
        return "<span class=\"sw c" + (runs().indexOf(r) % 10) + "\"></span>";
    }

    /** Links to the chart's PNG and SVG copies, or "" when neither was written. */
    String downloads(String base) {
        boolean png = chartFiles.contains(base + ".png");
        boolean svg = chartFiles.contains(base + ".svg");
        if (!png && !svg) {
            return "";
        }
        StringBuilder b = new StringBuilder("<p class=\"files\">For a ticket: ");
        if (png) {
            b.append("<a href=\"").append(base).append(".png\">").append(base).append(".png</a> ");
        }
        if (svg) {
            b.append("<a href=\"").append(base).append(".svg\">").append(base).append(".svg</a>");
        }
        return b.append("</p>\n").toString();
    }

    /** Opens a run's foldable table: open when the page has few runs; {@code summary} (HTML) is the small print, or null. */
    String details(RunResult r, String summary) {
        return "<details" + (runs().size() <= OPEN_DETAILS_UP_TO ? " open" : "") + "><summary>" + swatch(r)
                + Html.esc(r.name()) + (summary == null ? "" : " <small>" + summary + "</small>") + "</summary>\n";
    }
}
