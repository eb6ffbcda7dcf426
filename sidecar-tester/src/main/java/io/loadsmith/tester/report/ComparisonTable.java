package io.loadsmith.tester.report;

import io.loadsmith.tester.result.Experiment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An experiment's comparisons, one row per (a, b, stall state): the corrected and the service latency side by
 * side, each with its median difference, its differences per round and its verdict (and the verdict without
 * the outliers' rounds when an outlier took part).
 */
final class ComparisonTable {
    private ComparisonTable() {}

    /** Appends the table under {@code title}; nothing for no comparisons. {@code hint} is HTML. */
    static void appendTo(StringBuilder b, String title, String hint, List<Experiment.Comparison> comparisons) {
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
                cells(b, c);
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div>\n");
    }

    /** One latency's three cells: median difference, differences per round, verdict; dashes for a missing one. */
    private static void cells(StringBuilder b, Experiment.Comparison c) {
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
                    .collect(Collectors.joining(", "));
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
        return toldApart ? Html.badge("pass", "told apart") : Html.badge("off", "not told apart");
    }
}
