package io.loadsmith.tester.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PromQL queries of a Grafana dashboard file (examples/grafana/loadsmith.json): each annotation's, each panel
 * target's and each query variable's, named by where they are.
 */
record GrafanaDashboard(List<Query> queries) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern METRIC_NAME = Pattern.compile("\\bloadsmith_[a-z0-9_]+");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.+),\\s*([a-z_]+)\\)");

    /** Where a query sits in the dashboard. */
    enum Kind { ANNOTATION, PANEL, VARIABLE }

    /**
     * One query: {@code name} is the annotation's name, the panel's title or the variable's name; {@code refId}
     * the panel target's (null elsewhere); {@code expr} as written, Grafana's variables unreplaced.
     */
    record Query(Kind kind, String name, String refId, String expr) {

        /** The metric names it reads, in order, each once per mention. */
        List<String> metrics() {
            List<String> names = new ArrayList<>();
            Matcher m = METRIC_NAME.matcher(expr);
            while (m.find()) {
                names.add(m.group());
            }
            return names;
        }

        /**
         * The PromQL Grafana would send: {@code $__interval}, {@code $__rate_interval} and {@code $__range} replaced
         * by the given durations, every dashboard variable by its "All" value ({@code .*}); a variable's
         * {@code label_values(SELECTOR, LABEL)} becomes {@code group by (LABEL) (SELECTOR)}.
         */
        String promql(String interval, String rateInterval, String range) {
            String promql = expr.replace("$__rate_interval", rateInterval).replace("$__interval", interval)
                    .replace("$__range", range).replaceAll("\\$[a-z_]+", ".*");
            Matcher labelValues = LABEL_VALUES.matcher(promql);
            return labelValues.matches()
                    ? "group by (" + labelValues.group(2) + ") (" + labelValues.group(1) + ")"
                    : promql;
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(Locale.ROOT) + " \"" + name + "\"" + (refId == null ? "" : " " + refId) + ": " + expr;
        }
    }

    static GrafanaDashboard read(Path file) throws IOException {
        JsonNode dashboard = JSON.readTree(file.toFile());
        List<Query> queries = new ArrayList<>();
        for (JsonNode annotation : dashboard.at("/annotations/list")) {
            queries.add(new Query(Kind.ANNOTATION, annotation.get("name").asText(), null,
                    annotation.get("expr").asText()));
        }
        for (JsonNode panel : dashboard.get("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(new Query(Kind.PANEL, panel.get("title").asText(), target.get("refId").asText(),
                        target.get("expr").asText()));
            }
        }
        for (JsonNode variable : dashboard.at("/templating/list")) {
            if (variable.path("type").asText().equals("query")) {
                queries.add(new Query(Kind.VARIABLE, variable.get("name").asText(), null,
                        variable.at("/query/query").asText()));
            }
        }
        return new GrafanaDashboard(List.copyOf(queries));
    }

    /** The queries of one kind named {@code name} (an annotation, a panel's targets, a variable). */
    List<Query> named(Kind kind, String name) {
        return queries.stream().filter(q -> q.kind() == kind && q.name().equals(name)).toList();
    }

    List<Query> of(Kind kind) {
        return queries.stream().filter(q -> q.kind() == kind).toList();
    }
}
