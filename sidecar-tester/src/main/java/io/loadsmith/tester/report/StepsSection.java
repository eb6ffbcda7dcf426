package io.loadsmith.tester.report;

import io.loadsmith.tester.result.RunResult;
import io.loadsmith.tester.result.RunResult.Latency;
import io.loadsmith.tester.result.RunResult.StepResult;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Per run of journeys, a table of its steps: counts, and each latency's percentiles. */
final class StepsSection implements Section {
    private final PageContext page;

    StepsSection(PageContext page) {
        this.page = page;
    }

    @Override
    public String id() {
        return "steps";
    }

    @Override
    public String navTitle() {
        return "Steps";
    }

    @Override
    public boolean shown() {
        return !withSteps().isEmpty();
    }

    private List<RunResult> withSteps() {
        return page.runs().stream().filter(r -> !r.steps().isEmpty()).toList();
    }

    @Override
    public void appendTo(StringBuilder b) {
        b.append("<section id=\"steps\"><h2>Per step</h2>\n");
        for (RunResult r : withSteps()) {
            b.append(page.details(r, Html.plural(r.steps().size(), "step")));
            b.append("<div class=\"scroll\"><table class=\"num steps\"><thead><tr><th>step</th><th>sent</th><th>completed</th><th>errors</th>")
                    .append("<th>latency</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>mean</th></tr></thead><tbody>\n");
            for (StepResult s : r.steps()) {
                step(b, s);
            }
            b.append("</tbody></table></div></details>\n");
        }
        b.append("</section>\n");
    }

    /** A row per latency kind (one row of dashes for a step without latencies); the counts span them. */
    private static void step(StringBuilder b, StepResult s) {
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
                        .append(Html.tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().sent()), null))
                        .append(Html.tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().completed()), null))
                        .append(Html.tdSpan(span, s.counts() == null ? Html.NONE : Html.count(s.counts().errors()), null));
            }
            b.append("<td class=\"kind\">").append(Html.esc(k.getKey())).append("</td>");
            for (Double v : l == null ? Collections.<Double>nCopies(6, null)
                    : List.of(l.p50(), l.p90(), l.p99(), l.p999(), l.max(), l.mean())) {
                b.append(Html.td(Html.ms(v)));
            }
            b.append("</tr>\n");
            first = false;
        }
    }
}
