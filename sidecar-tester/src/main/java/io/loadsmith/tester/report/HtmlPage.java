package io.loadsmith.tester.report;

import io.loadsmith.tester.result.ResultsFile;
import io.loadsmith.tester.result.ResultsWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds report.html: the page's frame (head, header, footer, scripts) around its {@link Section}s; tables in
 * HTML, charts drawn in the browser by ECharts from an embedded JSON block ({@link ChartJson}).
 */
final class HtmlPage {
    private HtmlPage() {}

    static String render(ResultsFile results, List<String> chartFiles, String css, String chartLibraryJs, String pageJs) {
        PageContext page = new PageContext(results, chartFiles);
        List<Section> sections = List.of(
                new ExperimentSection(page), // an experiment's dot plot says more than its many rows, so it comes first
                new SummarySection(page),
                new SloSection(page),
                new AlignedSection(page),
                new PauseAlignedSection(page),
                new SpectrumSection(page),
                new TimelineSection(page),
                new AboveObjectiveSection(page),
                new StepsSection(page),
                new StallsSection(page),
                new ReplaySection(page));
        String title = title(results);
        StringBuilder b = new StringBuilder(64 * 1024);
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(Html.esc("loadsmith report \u2014 " + title)).append("</title>\n")
                .append("<style>\n").append(css).append("\n</style>\n")
                .append("<script>window.loadsmithErrors=[];window.addEventListener('error',function(e){window.loadsmithErrors.push(String(e.message));});</script>\n")
                .append("</head>\n<body>\n");
        new PageHeader(page).appendTo(b, title, sections);
        for (Section s : sections) {
            if (s.shown()) {
                s.appendTo(b);
            }
        }
        b.append("<footer>Written by loadsmith from <code>").append(ResultsWriter.FILE_NAME)
                .append("</code>. Latencies in milliseconds. <em>service</em> = end \u2212 actual send; ")
                .append("<em>corrected</em> = end \u2212 intended send.</footer>\n");
        b.append("<script type=\"application/json\" id=\"report-data\">").append(ChartJson.of(results)).append("</script>\n");
        b.append("<script>\n").append(chartLibraryJs.replace("</script", "<\\/script")).append("\n</script>\n");
        b.append("<script>\n").append(pageJs).append("\n</script>\n</body>\n</html>\n");
        return b.toString();
    }

    /** The experiment's name, else the runs' names (cut at 120 characters). */
    private static String title(ResultsFile results) {
        if (results.experiment() != null) {
            String name = results.experiment().name();
            return "experiment " + (name == null || name.isBlank() ? "(no name)" : name);
        }
        Set<String> names = new LinkedHashSet<>();
        results.runs().forEach(r -> names.add(r.name()));
        String joined = String.join(", ", names);
        return joined.isEmpty() ? "no runs" : joined.length() > 120 ? joined.substring(0, 117) + "..." : joined;
    }
}
