package io.loadsmith.tester.report;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadsmith.tester.report.Results.AboveObjective;
import io.loadsmith.tester.report.Results.AlignedScatter;
import io.loadsmith.tester.report.Results.AlignedSeries;
import io.loadsmith.tester.report.Results.Alignment;
import io.loadsmith.tester.report.Results.Counts;
import io.loadsmith.tester.report.Results.Experiment;
import io.loadsmith.tester.report.Results.Latency;
import io.loadsmith.tester.report.Results.Pair;
import io.loadsmith.tester.report.Results.Run;
import io.loadsmith.tester.report.Results.Slo;
import io.loadsmith.tester.report.Results.StallRow;
import io.loadsmith.tester.report.Results.StallSummary;
import io.loadsmith.tester.report.Results.Step;
import io.loadsmith.tester.report.Results.TimelinePoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads results.json into {@link Results}; anything unreadable becomes a {@link ReportException} naming the file. */
final class ResultsReader {
    static final String SCHEMA = "loadsmith/results/v1";
    private static final List<String> LATENCY_KINDS = List.of("service", "corrected", "estimated");

    private final Path file;
    private final Fields f;

    private ResultsReader(Path file) {
        this.file = file;
        this.f = new Fields(file);
    }

    static Results read(Path file) {
        return new ResultsReader(file).read();
    }

    private Results read() {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw new ReportException(file + ": no such file (a results directory holds results.json)", e);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            String where = at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
            throw new ReportException(file + where + ": not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ReportException(file + ": cannot be read: " + e, e);
        }
        if (root == null || !root.isObject()) {
            throw new ReportException(file + ": must hold a JSON object with \"schema\": \"" + SCHEMA + "\"");
        }
        String schema = f.text(root, "schema", "$");
        if (!SCHEMA.equals(schema)) {
            throw f.error("schema", "must be \"" + SCHEMA + "\" (got " + (schema == null ? "nothing" : "\"" + schema + "\"") + ")");
        }
        JsonNode clock = f.object(root, "clock", "$");
        List<JsonNode> runNodes = f.array(root, "runs", "$");
        if (Fields.child(root, "runs") == null) {
            throw f.error("runs", "is missing: a results file lists its runs");
        }
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < runNodes.size(); i++) {
            runs.add(run(runNodes.get(i), "runs[" + i + "]", i));
        }
        List<Slo> slos = slos(root, "$", null);
        String title = firstText(root, "name", "scenario", "title");
        String when = firstText(root, "created_at", "started_at", "when", "time");
        return new Results(file, title, when,
                f.number(clock, "offset_ns", "clock"), f.number(clock, "uncertainty_ns", "clock"),
                List.copyOf(runs), slos, alignment(f.object(root, "alignment", "$")),
                experiment(f.object(root, "experiment", "$")));
    }

    private String firstText(JsonNode node, String... names) {
        for (String n : names) {
            JsonNode c = Fields.child(node, n);
            if (c != null && c.isValueNode()) {
                return c.asText();
            }
        }
        return null;
    }

    private Run run(JsonNode r, String path, int index) {
        if (!r.isObject()) {
            throw f.error(path, "must be an object (got " + Fields.describe(r) + ")");
        }
        String name = f.text(r, "name", path);
        if (name == null) {
            name = "run " + (index + 1);
        }
        JsonNode tester = f.object(r, "tester", path);
        List<Map.Entry<String, String>> settings = new ArrayList<>();
        if (tester != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = tester.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = e.getValue();
                settings.add(new SimpleImmutableEntry<>(e.getKey(), v.isValueNode() ? v.asText() : v.toString()));
            }
        }
        JsonNode lat = f.object(r, "latency_ms", path);
        Map<String, Latency> latency = new LinkedHashMap<>();
        for (String kind : LATENCY_KINDS) {
            Latency l = latency(f.object(lat, kind, path + ".latency_ms"), path + ".latency_ms." + kind);
            if (l != null) {
                latency.put(kind, l);
            }
        }
        // how the estimate was made: run.estimate {interval_ms, interval_source, note}
        JsonNode estimate = f.object(r, "estimate", path);
        Latency estimated = latency.get("estimated");
        Double intervalMs = f.number(estimate, "interval_ms", path + ".estimate");
        if (estimated != null && estimated.intervalMs() == null && intervalMs != null) {
            latency.put("estimated", new Latency(estimated.p50(), estimated.p90(), estimated.p99(), estimated.p999(),
                    estimated.max(), estimated.mean(), intervalMs));
        }
        JsonNode above = f.object(r, "above_objective", path);
        AboveObjective aboveObjective = above == null ? null : new AboveObjective(
                f.number(above, "threshold_ms", path + ".above_objective"),
                f.integer(above, "service", path + ".above_objective"),
                f.integer(above, "corrected", path + ".above_objective"));
        JsonNode cost = f.object(r, "cost", path);
        List<TimelinePoint> timeline = new ArrayList<>();
        List<JsonNode> tl = f.array(r, "timeline", path);
        for (int i = 0; i < tl.size(); i++) {
            String p = path + ".timeline[" + i + "]";
            JsonNode t = tl.get(i);
            Double tS = f.number(t, "t_s", p);
            if (tS == null) {
                throw f.error(p + ".t_s", "is missing");
            }
            JsonNode s = f.object(t, "service", p);
            JsonNode c = f.object(t, "corrected", p);
            timeline.add(new TimelinePoint(tS, f.integer(t, "count", p), f.integer(t, "errors", p),
                    f.number(s, "p50", p + ".service"), f.number(s, "p99", p + ".service"),
                    f.number(c, "p50", p + ".corrected"), f.number(c, "p99", p + ".corrected")));
        }
        Map<String, List<double[]>> spectrum = new LinkedHashMap<>();
        JsonNode spec = f.object(r, "spectrum", path);
        for (String kind : List.of("service", "corrected")) {
            List<double[]> points = f.pairs(spec, kind, path + ".spectrum");
            if (!points.isEmpty()) {
                spectrum.put(kind, points);
            }
        }
        List<Step> steps = new ArrayList<>();
        List<JsonNode> st = f.array(r, "steps", path);
        for (int i = 0; i < st.size(); i++) {
            String p = path + ".steps[" + i + "]";
            JsonNode s = st.get(i);
            JsonNode sl = f.object(s, "latency_ms", p);
            String stepName = f.text(s, "name", p);
            steps.add(new Step(stepName == null ? "step " + (i + 1) : stepName, counts(f.object(s, "counts", p), p + ".counts"),
                    latency(f.object(sl, "service", p + ".latency_ms"), p + ".latency_ms.service"),
                    latency(f.object(sl, "corrected", p + ".latency_ms"), p + ".latency_ms.corrected")));
        }
        List<StallRow> stalls = new ArrayList<>();
        List<JsonNode> sn = f.array(r, "stalls", path);
        for (int i = 0; i < sn.size(); i++) {
            String p = path + ".stalls[" + i + "]";
            JsonNode s = sn.get(i);
            stalls.add(new StallRow(f.integer(s, "index", p), f.integer(s, "start_ns", p), f.integer(s, "end_ns", p),
                    f.integer(s, "held", p), f.integer(s, "sent_during", p), f.integer(s, "intended_during", p),
                    f.integer(s, "in_flight_at_start", p), f.integer(s, "overlapping", p), f.bool(s, "met", p)));
        }
        JsonNode ss = f.object(r, "stall_summary", path);
        String sp = path + ".stall_summary";
        StallSummary summary = ss == null ? null : new StallSummary(f.integer(ss, "stalls_met", sp),
                f.integer(ss, "sent_during_total", sp), f.number(ss, "overlapping_share", sp),
                f.bool(ss, "p99_can_see_stalls", sp));
        return new Run(name, f.text(r, "arm", path), f.integer(r, "round", path), f.bool(r, "stall", path),
                f.integer(r, "seed", path), firstText(r, "started_at", "created_at", "when"), List.copyOf(settings),
                counts(f.object(r, "counts", path), path + ".counts"), latency, aboveObjective,
                latency(f.object(r, "send_lateness_ms", path), path + ".send_lateness_ms"),
                f.number(cost, "cpu_ns_per_request", path + ".cost"), f.number(cost, "cpu_ms_total", path + ".cost"),
                f.number(r, "achieved_rate", path), f.texts(r, "warnings", path), slos(r, path, name),
                timeline, spectrum, steps, stalls, summary);
    }

    private Counts counts(JsonNode c, String path) {
        if (c == null) {
            return new Counts(null, null, null, null, null, null);
        }
        return new Counts(f.integer(c, "scheduled", path), f.integer(c, "sent", path), f.integer(c, "completed", path),
                f.integer(c, "errors", path), f.integer(c, "dropped", path), f.integer(c, "skipped", path));
    }

    private Latency latency(JsonNode l, String path) {
        if (l == null) {
            return null;
        }
        return new Latency(f.number(l, "p50", path), f.number(l, "p90", path), f.number(l, "p99", path),
                f.number(l, "p999", path), f.number(l, "max", path), f.number(l, "mean", path),
                f.number(l, "interval_ms", path));
    }

    private List<Slo> slos(JsonNode node, String path, String runName) {
        List<Slo> out = new ArrayList<>();
        List<JsonNode> items = f.array(node, "slos", path);
        for (int i = 0; i < items.size(); i++) {
            String p = path + ".slos[" + i + "]";
            JsonNode s = items.get(i);
            String run = f.text(s, "run", p);
            out.add(new Slo(run == null ? runName : run, f.text(s, "expr", p), f.number(s, "value_ms", p),
                    f.number(s, "value_percent", p), f.bool(s, "pass", p)));
        }
        return List.copyOf(out);
    }

    private Alignment alignment(JsonNode a) {
        if (a == null) {
            return null;
        }
        String p = "alignment";
        Double stallMs = f.number(a, "stall_ms", p);
        Double binMs = f.number(a, "bin_ms", p);
        Double fromMs = f.number(a, "from_ms", p);
        Double toMs = f.number(a, "to_ms", p);
        if (stallMs == null || binMs == null || fromMs == null || toMs == null) {
            throw f.error(p, "needs stall_ms, bin_ms, from_ms and to_ms");
        }
        if (binMs <= 0) {
            throw f.error(p + ".bin_ms", "must be > 0 (got " + binMs + ")");
        }
        List<AlignedSeries> series = new ArrayList<>();
        List<JsonNode> sn = f.array(a, "series", p);
        for (int i = 0; i < sn.size(); i++) {
            String sp = p + ".series[" + i + "]";
            series.add(new AlignedSeries(f.text(sn.get(i), "run", sp), f.integer(sn.get(i), "stalls_met", sp),
                    f.numbers(sn.get(i), "sends_per_bin", sp)));
        }
        List<AlignedScatter> scatter = new ArrayList<>();
        List<JsonNode> sc = f.array(a, "scatter", p);
        for (int i = 0; i < sc.size(); i++) {
            String sp = p + ".scatter[" + i + "]";
            scatter.add(new AlignedScatter(f.text(sc.get(i), "run", sp), f.pairs(sc.get(i), "points", sp)));
        }
        return new Alignment(stallMs, binMs, fromMs, toMs, series, scatter);
    }

    private Experiment experiment(JsonNode e) {
        if (e == null) {
            return null;
        }
        String p = "experiment";
        return new Experiment(f.integer(e, "rounds", p), f.texts(e, "arms", p), f.text(e, "metric", p),
                pairs(e, "pairs"), pairs(e, "stall_vs_no_stall"), Fields.child(e, "sweep"), Fields.child(e, "windows"));
    }

    private List<Pair> pairs(JsonNode e, String name) {
        List<Pair> pairs = new ArrayList<>();
        List<JsonNode> pn = f.array(e, name, "experiment");
        for (int i = 0; i < pn.size(); i++) {
            String pp = "experiment." + name + "[" + i + "]";
            JsonNode x = pn.get(i);
            JsonNode stall = Fields.child(x, "stall");
            String stallText = stall == null ? null : stall.isBoolean() ? (stall.booleanValue() ? "on" : "off") : f.text(x, "stall", pp);
            pairs.add(new Pair(f.text(x, "a", pp), f.text(x, "b", pp), f.text(x, "metric", pp), stallText,
                    f.numbers(x, "differences_ms", pp), f.bool(x, "told_apart", pp)));
        }
        return pairs;
    }
}
