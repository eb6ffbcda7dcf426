package io.loadsmith.tester.verify;

import com.fasterxml.jackson.databind.JsonNode;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Recomputes the figures of one run ({@code runs[i]}) from its raw files and compares them with the claims.
 * Figures results.json does not hold are not checked; every row names the figure by its JSON path.
 */
final class RunVerifier {

    private static final String[] PERCENTILES = {"p50", "p90", "p99", "p999"};
    private static final double[] PERCENTILE_VALUES = {50, 90, 99, 99.9};

    private final Path folder;
    private final JsonNode run;
    private final String at;
    private final String name;
    private final List<Row> rows;
    private final List<String> notes;

    private RunVerifier(Path folder, int i, JsonNode run, List<Row> rows, List<String> notes) {
        this.folder = folder;
        this.run = run;
        this.at = "runs[" + i + "]";
        this.name = run.path("name").asText();
        this.rows = rows;
        this.notes = notes;
    }

    /** Checks run {@code i} of the results in {@code folder}, adding its rows and notes. */
    static void verify(Path folder, int i, JsonNode run, List<Row> rows, List<String> notes) {
        new RunVerifier(folder, i, run, rows, notes).verify();
    }

    private void verify() {
        String log = run.path("requests_log").asText(null);
        if (log == null) {
            notes.add(name + ": no requests_log, nothing to recompute");
            return;
        }
        Path runFolder = run.hasNonNull("dir") ? folder.resolve(run.get("dir").asText())
                : folder.resolve(log).getParent();
        List<Window> stalls = agentWindows(runFolder, "stalls", AgentWindows.STALLS_FILE, "stalls");
        List<Window> pauses = agentWindows(runFolder, "service_pauses", AgentWindows.PAUSES_FILE, "pauses");

        RequestTally tally = new RequestTally(objectiveNanos(), intervalMicros());
        long durationNanos = Math.round(run.path("duration_ms").asDouble() * 1e6);
        WindowCounter[] counters = new WindowCounter[2];
        long startNanos = RawFiles.readRequests(folder.resolve(log), at + ".requests_log names it", r -> {
            tally.add(r);
            for (WindowCounter c : counters) {
                c.add(r);
            }
        }, header -> {
            counters[0] = new WindowCounter(stalls, header, header + durationNanos, replicaOfServedBy());
            counters[1] = new WindowCounter(pauses, header, header + durationNanos, replicaOfServedBy());
        });
        count("start_ns", startNanos);
        counts(tally);
        latencies("latency_ms", tally);
        lateness(tally.sendLateness);
        steps(tally);
        hlog(runFolder);
        if (run.has("stalls")) {
            windowRows("stalls", counters[0], true);
            summary("stall_summary", "stalls_met", counters[0]);
        }
        if (run.has("service_pauses")) {
            windowRows("service_pauses", counters[1], false);
            summary("pause_summary", "pauses_met", counters[1]);
            JsonNode paused = claim("pause_summary.paused_ms");
            if (paused != null) {
                double coveredMillis = counters[1].coveredMetNanos() / 1e6;
                compare("pause_summary.paused_ms", paused.asText(), format(coveredMillis),
                        Math.abs(paused.asDouble() - coveredMillis) <= 0.0005 + 1e-9);
            }
            JsonNode summary = run.path("pause_summary");
            if (summary.has("pauses")) {
                compare("pause_summary.pauses", summary.get("pauses").asText(), counters[1].windows().size(),
                        summary.get("pauses").asLong() == counters[1].windows().size());
            }
        } else {
            notes.add(name + ": no pauses to check");
        }
    }

    /** The agent's windows of the run's {@code claimedField} rows, from {@code file}; none when it lists none. */
    private List<Window> agentWindows(Path runFolder, String claimedField, String file, String field) {
        JsonNode claimed = run.path(claimedField);
        if (!claimed.isArray() || claimed.isEmpty()) {
            return List.of();
        }
        return AgentWindows.read(runFolder.resolve(file), run, field,
                at + "." + claimedField + " lists " + claimed.size() + ": verify needs the agent's windows");
    }

    /** The admin URL of each replica by its served-by number ({@code replicas[].served_by}; 0, no id, left out). */
    private Map<Integer, String> replicaOfServedBy() {
        Map<Integer, String> replicas = new HashMap<>();
        for (JsonNode used : run.path("replicas")) {
            int servedBy = used.path("served_by").asInt(0);
            if (servedBy != 0) {
                replicas.putIfAbsent(servedBy, used.path("address").asText());
            }
        }
        return replicas;
    }

    private long objectiveNanos() {
        JsonNode threshold = run.path("above_objective").path("threshold_ms");
        return threshold.isNumber() ? Math.round(threshold.asDouble() * 1e6) : -1;
    }

    private long intervalMicros() {
        JsonNode interval = run.path("estimate").path("interval_ms");
        return interval.isNumber() ? RequestTally.micros(Math.round(interval.asDouble() * 1e6)) : 0;
    }

    private void counts(RequestTally t) {
        JsonNode skipped = run.path("counts").path("skipped");
        count("counts.scheduled", t.records + skipped.asLong(0));
        count("counts.sent", t.sent);
        count("counts.completed", t.completed);
        count("counts.errors", t.errors);
        count("counts.dropped", t.dropped);
        count("counts.dropped_after_send", t.droppedAfterSend);
        count("above_objective.service", t.serviceAbove);
        count("above_objective.corrected", t.correctedAbove);
    }

    private void latencies(String path, RequestTally t) {
        latency(path + ".service", t.service);
        latency(path + ".corrected", t.corrected);
        if (run.path("estimate").path("interval_ms").isNumber() && path.equals("latency_ms")) {
            latency(path + ".estimated", t.estimated);
        }
    }

    private void latency(String path, Histogram h) {
        for (int p = 0; p < PERCENTILES.length; p++) {
            percentile(path + "." + PERCENTILES[p], h, h.getValueAtPercentile(PERCENTILE_VALUES[p]));
        }
        percentile(path + ".max", h, h.getMaxValue());
        JsonNode mean = claim(path + ".mean");
        if (mean != null) {
            double meanMillis = h.getMean() / 1000.0;
            compare(path + ".mean", mean.asText(), format(meanMillis),
                    Math.abs(mean.asDouble() - meanMillis) <= Math.max(0.0005, meanMillis / 1000));
        }
        count(path + ".count", h.getTotalCount());
    }

    private void lateness(Histogram h) {
        percentile("send_lateness_ms.p50", h, h.getValueAtPercentile(50));
        percentile("send_lateness_ms.p99", h, h.getValueAtPercentile(99));
        percentile("send_lateness_ms.max", h, h.getMaxValue());
    }

    private void steps(RequestTally t) {
        JsonNode steps = run.path("steps");
        for (int k = 0; k < steps.size(); k++) {
            RequestTally step = t.steps.getOrDefault(steps.get(k).path("step").asInt(), new RequestTally(-1, 0));
            String path = "steps[" + k + "]";
            count(path + ".counts.sent", step.sent);
            count(path + ".counts.completed", step.completed);
            count(path + ".counts.errors", step.errors);
            count(path + ".counts.dropped", step.dropped);
            latencies(path + ".latency_ms", step);
        }
    }

    /** The interval log's totals against the claimed percentiles: the same requests, recorded another way. */
    private void hlog(Path runFolder) {
        String hlog = run.path("hlog").asText(null);
        if (hlog == null) {
            notes.add(name + ": no hlog to cross-check");
            return;
        }
        Map<String, Histogram> totals = RawFiles.hlogTotals(folder.resolve(hlog), at + ".hlog names it");
        for (String view : List.of("service", "corrected")) {
            Histogram h = totals.getOrDefault(view, RequestTally.histogram());
            String path = "latency_ms." + view;
            for (int p = 0; p < PERCENTILES.length; p++) {
                percentile(path + "." + PERCENTILES[p], h, h.getValueAtPercentile(PERCENTILE_VALUES[p]),
                        " (latency.hlog)");
            }
            percentile(path + ".max", h, h.getMaxValue(), " (latency.hlog)");
            count(path + ".count", h.getTotalCount(), " (latency.hlog)");
        }
    }

    private void windowRows(String field, WindowCounter counter, boolean stalls) {
        JsonNode claimed = run.path(field);
        List<String> listed = new ArrayList<>();
        for (int k = 0; k < counter.windows().size(); k++) {
            Window w = counter.windows().get(k);
            listed.add(w.index() + " " + w.replica());
            int row = rowOf(claimed, w.index(), w.replica());
            if (row < 0) {
                compare(field + " index " + w.index() + (w.replica() == null ? "" : " of " + w.replica()), "absent",
                        "present", false);
                continue;
            }
            String path = field + "[" + row + "]";
            count(path + ".start_ns", w.startNanos());
            count(path + ".end_ns", w.endNanos());
            if (stalls) {
                count(path + ".held", w.agent().path("held").asLong());
            } else {
                text(path + ".source", w.agent().path("source"));
                text(path + ".label", w.agent().path("label"));
                text(path + ".time_to_safepoint_ns", w.agent().path("time_to_safepoint_ns"));
            }
            count(path + ".sent_during", counter.sentDuring[k]);
            count(path + ".intended_during", counter.intendedDuring[k]);
            count(path + ".in_flight_at_start", counter.inFlightAtStart[k]);
            count(path + ".overlapping", counter.overlapping[k]);
            flag(path + ".met", counter.met(k));
        }
        for (int row = 0; row < claimed.size(); row++) {
            long index = claimed.get(row).path("index").asLong();
            if (!listed.contains(index + " " + claimed.get(row).path("replica").asText(null))) {
                compare(field + "[" + row + "]", "index " + index, "not in the agent's windows", false);
            }
        }
    }

    /** The row of window {@code index} of {@code replica} (null: the run's one agent); -1 if none. */
    private static int rowOf(JsonNode claimed, long index, String replica) {
        for (int row = 0; row < claimed.size(); row++) {
            if (claimed.get(row).path("index").asLong(-1) == index
                    && Objects.equals(claimed.get(row).path("replica").asText(null), replica)) {
                return row;
            }
        }
        return -1;
    }

    private void summary(String field, String metField, WindowCounter counter) {
        count(field + "." + metField, counter.metCount());
        count(field + ".sent_during_total", counter.sentDuringMet());
        count(field + ".sent", counter.sent);
        count(field + ".overlapping", counter.overlappingMet);
        double share = counter.sent == 0 ? 0.0 : counter.overlappingMet / (double) counter.sent;
        JsonNode claimedShare = claim(field + ".overlapping_share");
        if (claimedShare != null) {
            compare(field + ".overlapping_share", claimedShare.asText(), String.format(Locale.ROOT, "%.6f", share),
                    Math.abs(claimedShare.asDouble() - share) <= 5e-7 + 1e-12);
        }
        flag(field + ".p99_can_see_stalls", share > 0.01);
    }

    // ---- comparing one figure

    private JsonNode claim(String path) {
        JsonNode node = run;
        for (String part : path.split("\\.")) {
            int bracket = part.indexOf('[');
            node = bracket < 0 ? node.path(part)
                    : node.path(part.substring(0, bracket)).path(Integer.parseInt(part.substring(bracket + 1, part.length() - 1)));
        }
        return node.isMissingNode() || node.isNull() ? null : node;
    }

    private void count(String path, long recomputed) {
        count(path, recomputed, "");
    }

    private void count(String path, long recomputed, String source) {
        JsonNode claimed = claim(path);
        if (claimed != null) {
            compare(path + source, claimed.asText(), recomputed,
                    claimed.isIntegralNumber() && claimed.asLong() == recomputed);
        }
    }

    private void flag(String path, boolean recomputed) {
        JsonNode claimed = claim(path);
        if (claimed != null) {
            compare(path, claimed.asText(), String.valueOf(recomputed), claimed.isBoolean() && claimed.asBoolean() == recomputed);
        }
    }

    private void text(String path, JsonNode recomputed) {
        JsonNode claimed = claim(path);
        if (claimed != null && !recomputed.isMissingNode()) {
            compare(path, claimed.asText(), recomputed.asText(), claimed.asText().equals(recomputed.asText()));
        }
    }

    private void percentile(String path, Histogram h, long recomputedMicros) {
        percentile(path, h, recomputedMicros, "");
    }

    /** A latency in ms against a recomputed value in µs: they agree when HdrHistogram holds them in one bucket. */
    private void percentile(String path, Histogram h, long recomputedMicros, String source) {
        JsonNode claimed = claim(path);
        if (claimed != null) {
            long claimedMicros = Math.round(claimed.asDouble() * 1000);
            compare(path + source, claimed.asText(), format(recomputedMicros / 1000.0),
                    claimed.isNumber() && h.valuesAreEquivalent(claimedMicros, recomputedMicros));
        }
    }

    private void compare(String path, String claimed, long recomputed, boolean agrees) {
        compare(path, claimed, String.valueOf(recomputed), agrees);
    }

    private void compare(String path, String claimed, String recomputed, boolean agrees) {
        rows.add(new Row(name, at + "." + path, claimed, recomputed, agrees));
    }

    private static String format(double millis) {
        return String.format(Locale.ROOT, "%.3f", millis);
    }
}
